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

extension UUID {
    /// The UUID of the 8-4-4-4-12 form in hexadecimal digits of either case, read from the
    /// text's bytes as `UUID(uuidString:)` reads it; that parses through `sscanf` on Linux (5%
    /// of the thread that reads a search's hits) and also takes a sign inside a field, which no
    /// id we write has. Nil for anything else.
    public init?(hexText text: String) {
        var text = text
        let parsed = text.withUTF8 { bytes -> uuid_t? in
            guard bytes.count == 36 else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let ok = withUnsafeMutableBytes(of: &value) { out -> Bool in
                var position = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        guard bytes[position] == UInt8(ascii: "-") else { return false }
                        position += 1
                    }
                    guard let high = Self.hexDigit(bytes[position]), let low = Self.hexDigit(bytes[position + 1]) else {
                        return false
                    }
                    out[index] = high << 4 | low
                    position += 2
                }
                return true
            }
            return ok ? value : nil
        }
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
