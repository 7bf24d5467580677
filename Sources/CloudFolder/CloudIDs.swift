/// A device id: 16 characters of lowercase base32 (`a-z`, `2-7`), random (SYNC-FORMAT).
///
/// Validated by an anchored pattern wherever it is read, since a name from the folder becomes
/// part of a path (`../x`, `/etc`, a NUL byte are simply not device ids).
public struct DeviceID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: String

    public init?(_ text: String) {
        guard text.utf8.count == 16, text.utf8.allSatisfy(DeviceID.isBase32) else { return nil }
        rawValue = text
    }

    /// An id made here from the base32 alphabet, which needs no check.
    private init(unchecked text: String) { rawValue = text }

    /// A new random id (80 bits).
    public static func random() -> DeviceID {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        return DeviceID(unchecked: String((0..<16).map { _ in alphabet[Int(generator.next() % 32)] }))
    }

    public var description: String { rawValue }

    public static func < (a: DeviceID, b: DeviceID) -> Bool { a.rawValue < b.rawValue }

    static func isBase32(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "2")...UInt8(ascii: "7")).contains(byte)
    }
}

/// A zone (notebook) id: `[a-z0-9-]{1,64}`, validated wherever it is read (SYNC-FORMAT).
public struct ZoneID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: String

    /// The default notebook's zone, `notes` (`Note.defaultZone`).
    public static let notes = ZoneID(valid: "notes")

    private init(valid text: String) { rawValue = text }

    public init?(_ text: String) {
        let bytes = text.utf8
        guard (1...64).contains(bytes.count),
            bytes.allSatisfy({
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "-")
            })
        else { return nil }
        rawValue = text
    }

    public var description: String { rawValue }

    public static func < (a: ZoneID, b: ZoneID) -> Bool { a.rawValue < b.rawValue }
}
