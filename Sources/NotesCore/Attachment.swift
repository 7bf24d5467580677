import Crypto
import Foundation

/// A file attached to a note: part of the note's synced fields (SYNC-FORMAT "Bodies", rule 15).
///
/// The fields carry the name, the size and the SHA-256 of the content; the content itself lives
/// content-addressed in the data directory and travels as chunks of the cloud folder's assets.
public struct Attachment: Sendable, Equatable, Hashable {
    /// The largest attachment a record may name: 1 GiB, the most a chunk list holds (rule 15).
    public static let maxSize: Int64 = 1 << 30
    /// Names are at most this many UTF-8 bytes.
    public static let maxNameBytes = 255

    public var name: String
    public var size: Int64
    /// Lowercase hex SHA-256 of the content.
    public var sha256: String

    public init(name: String, size: Int64, sha256: String) {
        self.name = name
        self.size = size
        self.sha256 = sha256
    }

    /// Equal when every byte of the name is (as every text field of a revision).
    public static func == (a: Attachment, b: Attachment) -> Bool {
        a.name.utf8.elementsEqual(b.name.utf8) && a.size == b.size && a.sha256 == b.sha256
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(Array(name.utf8))
        hasher.combine(size)
        hasher.combine(sha256)
    }

    public var json: JSONValue {
        .object(["name": .string(name), "sha256": .string(sha256), "size": .int(size)])
    }

    /// Reads one entry of a record's `attachments`; throws for a malformed one.
    public init(json: JSONValue) throws {
        guard let name = json["name"]?.stringValue, let size = json["size"]?.intValue,
            let sha256 = json["sha256"]?.stringValue, case .object(let keys) = json, keys.count == 3
        else { throw JSONValueError.notCanonical("an attachment needs exactly name, sha256 and size") }
        if let reason = Self.nameProblem(name) { throw JSONValueError.notCanonical(reason) }
        guard (0...Self.maxSize).contains(size), Self.isHash(sha256) else {
            throw JSONValueError.notCanonical("attachment \(name.debugDescription): size or sha256 is malformed")
        }
        self.init(name: name, size: size, sha256: sha256)
    }

    /// Why `name` cannot name an attachment (it becomes a file name on export and on
    /// `attachment --output`), or nil when it can: 1–255 UTF-8 bytes, no `/`, no control
    /// characters, not `.` or `..`.
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "an attachment name is empty" }
        if name.utf8.count > maxNameBytes { return "an attachment name is over \(maxNameBytes) bytes" }
        if name == "." || name == ".." { return "an attachment may not be named \(name)" }
        if name.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 < 0x20 || $0 == 0x7F }) {
            return "an attachment name may not hold '/' or control characters"
        }
        return nil
    }

    /// 64 lowercase hex digits.
    public static func isHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Attachments in the order the fields keep them: by the UTF-8 bytes of their names.
    public static func sorted(_ items: [Attachment]) -> [Attachment] {
        items.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }
}

/// SHA-256 over content read piece by piece (an attachment is never held whole in memory).
public struct ContentHasher: Sendable {
    private var hasher = SHA256()

    public init() {}

    public mutating func update(_ bytes: some DataProtocol) { hasher.update(data: bytes) }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) { hasher.update(bufferPointer: bytes) }

    /// The lowercase hex digest.
    public func finalize() -> String {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in hasher.finalize() { out += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]] }
        return String(decoding: out, as: UTF8.self)
    }
}
