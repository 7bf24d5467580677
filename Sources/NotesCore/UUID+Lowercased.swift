import Foundation

extension UUID {
    /// The lowercase form ids are stored and synced in (`uuidString.lowercased()`), built from
    /// the bytes: Foundation formats `uuidString` through `snprintf`, which was 4% of an
    /// import's writer thread.
    public var lowercasedString: String {
        let hex = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    out[position] = hex[Int(byte >> 4)]
                    out[position + 1] = hex[Int(byte & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }
}
