import Foundation

extension String {
    /// Whether the string's UTF-8 holds `byte`: `memchr` over its contiguous bytes (an import
    /// asks this of every note; the generic `utf8.contains` goes a byte at a time).
    public func utf8Contains(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.map { memchr($0, Int32(byte), bytes.count) != nil } ?? false
        } ?? utf8.contains(byte)
    }
}
