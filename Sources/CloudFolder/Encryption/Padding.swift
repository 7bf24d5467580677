/// Length hiding for sealed files: the Padmé scheme (Nikitin et al., "Reducing Metadata Leakage
/// from Encrypted Files and Communication with PURBs", 2019). A length L is rounded up so that
/// only its top ⌊log2 ⌊log2 L⌋⌋ + 1 bits may be non-zero: at most 12% of overhead, and a size
/// reveals O(log log L) bits instead of log L. Lengths of 256 bytes and under all pad to 256.
enum Padding {
    static let minimum = 256

    /// The padded length for `length` bytes.
    static func paddedSize(_ length: Int) -> Int {
        let length = max(length, minimum)
        let exponent = Int.bitWidth - 1 - length.leadingZeroBitCount  // ⌊log2 L⌋
        let bitsOfExponent = Int.bitWidth - exponent.leadingZeroBitCount  // ⌊log2 E⌋ + 1
        let lastBits = exponent - bitsOfExponent
        let mask = (1 << lastBits) - 1
        return (length + mask) & ~mask
    }

    /// `bytes` behind its 4-byte big-endian length, zero-padded to `paddedSize`.
    static func frame(_ bytes: [UInt8]) -> [UInt8] {
        let count = UInt32(truncatingIfNeeded: bytes.count)
        var framed: [UInt8] = [UInt8(count >> 24), UInt8(truncatingIfNeeded: count >> 16)]
        framed += [UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
        framed.reserveCapacity(paddedSize(bytes.count + 4))
        framed += bytes
        framed += [UInt8](repeating: 0, count: paddedSize(bytes.count + 4) - framed.count)
        return framed
    }

    /// The bytes of a framed plaintext, or nil when the frame is malformed (a length past the
    /// end, or padding that is not zeros).
    static func unframe(_ framed: [UInt8]) -> [UInt8]? {
        guard framed.count >= 4 else { return nil }
        let count = Int(framed[0]) << 24 | Int(framed[1]) << 16 | Int(framed[2]) << 8 | Int(framed[3])
        guard count <= framed.count - 4, framed[(4 + count)...].allSatisfy({ $0 == 0 }) else { return nil }
        return Array(framed[4..<(4 + count)])
    }
}
