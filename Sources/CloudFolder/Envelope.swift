import Crypto
import Foundation
import NotesCore

/// The self-checking wrapper around every file of the cloud folder (SYNC-FORMAT rule 3).
///
/// A file is the canonical JSON (sorted keys, UTF-8, no whitespace) of
/// `{body, device, format, hlc, kind, seq, sha256, zone}` followed by one LF, where `sha256` is
/// the hex SHA-256 of the body's canonical bytes. A file that does not check out (torn, half
/// replicated, tampered, or sitting at a path that does not match its header) is "not arrived
/// yet" (ARCHITECTURE §7): never an error that stops sync, never deleted, never overwritten.
public struct Envelope: Sendable, Equatable {
    /// What a file is; also the `kind` field.
    public enum Kind: String, Sendable, CaseIterable {
        case container, device, zone, deleted, changes, snapshot, keys
        /// `names/<dev>-<hlc>.json`: a notebook's display name (SYNC-FORMAT rule 16).
        case name
        /// `moved.json` at the root: where a moved container went (SYNC-FORMAT "Moving").
        case moved
        /// `private/identity.json` of an encrypted container: the account's identity for sharing
        /// (SYNC-FORMAT "Identities").
        case identity
        /// `private/settings/<dev>-<hlc>.json`: one write of a setting that syncs (SYNC-FORMAT
        /// "Settings").
        case setting
    }

    /// The format of a plain container's files, and of the envelopes inside sealed files.
    public static let currentFormat: Int64 = 1
    /// The format of an encrypted container's `container.json` and keys files (SYNC-FORMAT rule
    /// 14): a build that reads only format 1 refuses the folder with a clear message.
    public static let encryptedFormat: Int64 = 2
    /// The format of a log file or snapshot holding a record with attachments (SYNC-FORMAT
    /// rule 15): a build that knows no attachments refuses it as newer, never misreads it.
    public static let attachmentsFormat: Int64 = 3
    /// The format of a snapshot whose history records (revisions that are no note's head) name
    /// attachments without their chunks (SYNC-FORMAT rule 15): a build that requires the chunks
    /// of every record refuses it as newer rather than as damaged.
    public static let snapshotHistoryFormat: Int64 = 4
    /// The formats this build reads.
    public static let supportedFormats: ClosedRange<Int64> = 1...4
    /// The format of a keys file wrapping more than one data key (SYNC-FORMAT rule 14, after a
    /// `sync passphrase --new-key`): a build that knows one key only refuses it as newer.
    public static let keyringFormat: Int64 = 6

    public var format: Int64
    public var kind: Kind
    /// The zone the file belongs to; empty for container and device files.
    public var zone: String
    /// The writer's device id.
    public var device: String
    /// The batch number for `changes` and `snapshot`; 0 otherwise.
    public var seq: Int64
    public var hlc: HLC
    public var body: JSONValue

    public init(kind: Kind, zone: String = "", device: String, seq: Int64 = 0, hlc: HLC, body: JSONValue) {
        self.format = Envelope.currentFormat
        self.kind = kind
        self.zone = zone
        self.device = device
        self.seq = seq
        self.hlc = hlc
        self.body = body
    }

    /// The file's bytes: canonical JSON and a final LF.
    public var encoded: [UInt8] { encoded(body: body.canonicalBytes) }

    /// The file's bytes around the body's canonical bytes, which are encoded once: a log file's
    /// body is nearly all of it, and encoding it is most of what writing or checking one costs.
    /// `body` sorts first of the eight keys, so the file is `{"body":` BODY `,` and the rest of
    /// the object's canonical form after its `{`.
    func encoded(body bodyBytes: [UInt8]) -> [UInt8] {
        let rest = header(sha256: Self.sha256(bodyBytes))
        var out = Array(#"{"body":"#.utf8)
        out.reserveCapacity(out.count + bodyBytes.count + rest.count + 1)
        out += bodyBytes
        out.append(UInt8(ascii: ","))
        out += rest.dropFirst()
        out.append(0x0A)
        return out
    }

    /// The canonical form of the seven members after `body`, as an object of its own.
    private func header(sha256 hash: String) -> [UInt8] {
        JSONValue.object([
            "device": .string(device), "format": .int(format), "hlc": .string(hlc.description),
            "kind": .string(kind.rawValue), "seq": .int(seq), "sha256": .string(hash), "zone": .string(zone),
        ]).canonicalBytes
    }

    /// What the path of a file says its header must be.
    public struct Expectation: Sendable, Equatable {
        public var kind: Kind
        public var zone: String
        public var device: String?
        public var seq: Int64?

        public init(kind: Kind, zone: String = "", device: String? = nil, seq: Int64? = nil) {
            self.kind = kind
            self.zone = zone
            self.device = device
            self.seq = seq
        }
    }

    /// The result of checking a file.
    public enum Verification: Sendable, Equatable {
        case valid(Envelope)
        /// The file does not check out yet; the reason is for logs and status.
        case notArrivedYet(reason: String)
        /// The file checks out but was written by a newer format than ours.
        case unsupportedFormat(Int64)
    }

    /// Checks a file's bytes: canonical form, format, body hash, and a header that matches its path.
    public static func verify(_ bytes: [UInt8], expecting expected: Expectation) -> Verification {
        guard bytes.last == 0x0A else { return .notArrivedYet(reason: "no final newline (torn or partial file)") }
        let json: JSONValue
        let isCanonical: Bool
        do {
            (json, isCanonical) = try JSONValue.parsingNotingForm(Data(bytes.dropLast()))
        } catch {
            return .notArrivedYet(reason: "not valid JSON")
        }
        guard case .object(let fields) = json, fields.count == 8,
            let format = json["format"]?.intValue, let kindText = json["kind"]?.stringValue,
            let zone = json["zone"]?.stringValue, let device = json["device"]?.stringValue,
            let seq = json["seq"]?.intValue, let hlcText = json["hlc"]?.stringValue,
            let hash = json["sha256"]?.stringValue, let body = json["body"]
        else { return .notArrivedYet(reason: "not an envelope (fields missing or extra)") }
        guard supportedFormats.contains(format) || (format == keyringFormat && kindText == Kind.keys.rawValue) else {
            return format > supportedFormats.upperBound
                ? .unsupportedFormat(format) : .notArrivedYet(reason: "format \(format)")
        }
        guard let kind = Kind(rawValue: kindText), let hlc = HLC(hlcText) else {
            return .notArrivedYet(reason: "unknown kind, or an hlc malformed or out of range")
        }
        // Format 3 is that of log files and snapshots naming attachments (rule 15) only.
        if format == attachmentsFormat, kind != .changes, kind != .snapshot { return .unsupportedFormat(format) }
        // Format 4 is that of snapshots whose history records go without chunks (rule 15) only.
        if format == snapshotHistoryFormat, kind != .snapshot { return .unsupportedFormat(format) }
        guard (0...CloudLayout.maxSeq).contains(seq) else {
            return .notArrivedYet(reason: "seq \(seq) is out of range")
        }
        var envelope = Envelope(kind: kind, zone: zone, device: device, seq: seq, hlc: hlc, body: body)
        envelope.format = format
        if isCanonical, let bodyBytes = envelope.canonicalBody(in: bytes, sha256: hash) {
            // The file is the canonical form of what it holds, so the body's canonical bytes are
            // the file's own between `{"body":` and the rest of the header: hashed where they lie.
            guard hash == sha256(bodyBytes) else { return .notArrivedYet(reason: "body does not match its sha256") }
        } else {
            // Encoded again, which tells why the file is refused.
            let bodyBytes = body.canonicalBytes
            guard hash == sha256(bodyBytes) else {
                return .notArrivedYet(reason: "body does not match its sha256")
            }
            guard envelope.encoded(body: bodyBytes) == bytes else {
                return .notArrivedYet(reason: "not in canonical form")
            }
        }
        guard kind == expected.kind, zone == expected.zone, expected.device.map({ $0 == device }) ?? true,
            expected.seq.map({ $0 == seq }) ?? true
        else { return .notArrivedYet(reason: "header does not match the file's path") }
        return .valid(envelope)
    }

    /// The body's bytes in a file (`bytes`) that reads `{"body":`, then the body, then exactly
    /// the rest of this envelope's encoding with `hash` as its `sha256`; nil when it does not.
    /// A canonical file always does while the header's texts read back as they were written
    /// (an HLC's do): checked here rather than assumed.
    private func canonicalBody(in bytes: [UInt8], sha256 hash: String) -> ArraySlice<UInt8>? {
        let head = Array(#"{"body":"#.utf8)
        var tail = [UInt8(ascii: ",")]
        tail += header(sha256: hash).dropFirst()
        tail.append(0x0A)
        guard bytes.count >= head.count + tail.count, bytes.starts(with: head),
            bytes[(bytes.count - tail.count)...].elementsEqual(tail)
        else { return nil }
        return bytes[head.count..<(bytes.count - tail.count)]
    }

    /// Lowercase hex SHA-256.
    public static func sha256(_ bytes: some DataProtocol) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) { out += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]] }
        return String(decoding: out, as: UTF8.self)
    }
}
