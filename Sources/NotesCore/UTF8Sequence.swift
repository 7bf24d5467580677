/// One UTF-8 sequence past ASCII, read from its bytes: the one decoder of the walks that must
/// agree on where each scalar starts and what it is (`TextFolding.Folder`'s fold and its noting
/// of sources, `SingleScalarCharacters`).
enum UTF8Sequence {
    /// How many bytes the sequence that `lead` (0x80 or more) starts takes: 2 to 4, or 0 when
    /// `lead` starts none (a continuation byte, or 0xF8 up).
    @inline(__always)
    static func length(lead: UInt8) -> Int {
        lead >= 0xF8 ? 0 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
    }

    /// The scalar value of the `length` bytes (2 to 4) from `start`, a lead byte and its
    /// continuation bytes; nil when a byte after the lead is not a continuation byte. Overlong
    /// forms and surrogates are decoded as they are: a caller that refuses them checks the value.
    @inline(__always)
    static func value(_ bytes: UnsafePointer<UInt8>, at start: Int, length: Int) -> UInt32? {
        var value = UInt32(bytes[start]) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
        for offset in 1..<length {
            let byte = bytes[start + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return value
    }
}
