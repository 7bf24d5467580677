/// Reads LEB128 varints of at most 32 bits, as `Postings.appendVarint` writes them.
struct VarintReader {
    private let bytes: UnsafeRawBufferPointer
    /// The offset of the next varint.
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The next value; nil at the end. Throws `SearchIndexDamage` on a varint cut short or
    /// over 32 bits (five bytes at most, the fifth below 0x10).
    mutating func next() throws -> UInt32? {
        guard position < bytes.count else { return nil }
        var value: UInt32 = 0
        for index in 0..<5 {
            guard position < bytes.count else { throw SearchIndexDamage("a posting list ends inside a number") }
            let byte = bytes[position]
            position += 1
            guard index < 4 || byte < 0x10 else {
                throw SearchIndexDamage("a posting list holds a number over 32 bits")
            }
            value |= UInt32(byte & 0x7F) << (7 * index)
            if byte & 0x80 == 0 { return value }
        }
        throw SearchIndexDamage("a posting list holds a number over 32 bits")
    }
}
