import Testing

@testable import NotesCore

/// `UTF8Sequence` decodes what Swift's UTF-8 encodes: every scalar past ASCII, from its bytes.
@Suite struct UTF8SequenceTests {
    @Test func everyScalarPastASCIIDecodesToItselfFromItsBytes() {
        var checked = 0
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bytes = Array(String(Character(scalar)).utf8)
            let length = UTF8Sequence.length(lead: bytes[0])
            #expect(length == bytes.count, "U+\(String(value, radix: 16))")
            guard length == bytes.count else { return }
            let decoded = bytes.withUnsafeBufferPointer { UTF8Sequence.value($0.baseAddress!, at: 0, length: length) }
            #expect(decoded == value, "U+\(String(value, radix: 16))")
            guard decoded == value else { return }
            checked += 1
        }
        #expect(checked == 0x10FFFF + 1 - 0x80 - 0x800)
    }

    /// A byte that starts no sequence has length 0; a sequence with a byte that does not
    /// continue it decodes to nil.
    @Test func bytesThatAreNotASequenceAreRefused() {
        for lead in UInt8(0x80)...0xBF { #expect(UTF8Sequence.length(lead: lead) == 0) }
        for lead in UInt8(0xF8)...0xFF { #expect(UTF8Sequence.length(lead: lead) == 0) }
        for bytes: [UInt8] in [[0xC3, 0x41], [0xE6, 0x9D, 0xC3], [0xF0, 0x9F, 0x98, 0x20], [0xE6, 0xF0, 0x80]] {
            let decoded = bytes.withUnsafeBufferPointer {
                UTF8Sequence.value($0.baseAddress!, at: 0, length: UTF8Sequence.length(lead: bytes[0]))
            }
            #expect(decoded == nil, "\(bytes)")
        }
    }
}
