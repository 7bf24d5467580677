/// Zeros that `appendZeros` copies from.
private let zeroPage = [UInt8](repeating: 0, count: 4096)

extension Array where Element == UInt8 {
    /// Appends `count` zero bytes (a bitmap's or a buffer's room) copied from a page of zeros, a
    /// buffer at a time: the generic `append(contentsOf: repeatElement(0, count:))` of a debug
    /// build, the tests', goes a byte at a time. The array grows as any append grows it.
    public mutating func appendZeros(_ count: Int) {
        var left = count
        zeroPage.withUnsafeBufferPointer { zeros in
            while left > 0 {
                let chunk = Swift.min(left, zeros.count)
                append(contentsOf: UnsafeBufferPointer(rebasing: zeros[0..<chunk]))
                left -= chunk
            }
        }
    }
}
