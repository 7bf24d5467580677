import Foundation
import NotesCore

/// The forward pointer a moved container leaves at its old root, `moved.json` (SYNC-FORMAT
/// "Moving"): which place the container went to.
///
/// It is an envelope like every file of the folder (kind `moved`, body `{"containerID", "movedTo"}`),
/// sealed under the name `moved.json` when the container is encrypted, so that only a holder of
/// the container's key can redirect its devices. A pointer written by 0.15.0 (`{"movedTo": …}`,
/// bare JSON) is read only in a plain container, strictly, and with its place validated: it says
/// no more than a plain folder's files already let its writer say.
public struct ForwardPointer: Sendable, Equatable {
    /// The place the container went to: an absolute path or `s3://BUCKET[/PREFIX]`.
    public var place: String
    /// The container the pointer belongs to; nil for a pointer in 0.15.0's bare JSON.
    public var containerID: String?

    /// The most bytes a pointer's place may hold.
    public static let maxPlaceBytes = 1024

    public init(place: String, containerID: String?) {
        self.place = place
        self.containerID = containerID
    }

    /// Whether `place` may be followed: an absolute, normalized path or an `s3://` URL with a
    /// bucket, on one line, without `.`/`..` components, NUL or control characters, at most
    /// `maxPlaceBytes`.
    public static func isValidPlace(_ place: String) -> Bool {
        guard !place.isEmpty, place.utf8.count <= maxPlaceBytes,
            !place.unicodeScalars.contains(where: {
                $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value)
            })
        else { return false }
        var rest = Substring(place)
        if place.hasPrefix("s3://") {
            rest = place.dropFirst(5)
            let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
            guard let bucket = parts.first, (1...255).contains(bucket.count),
                bucket.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) })
            else { return false }
            return parts.dropFirst().allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
        }
        guard place.hasPrefix("/") else { return false }
        if place == "/" { return false }
        return place.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != "." && $0 != ".."
        }
    }

    /// The envelope body.
    var body: JSONValue {
        .object(["containerID": .string(containerID ?? ""), "movedTo": .string(place)])
    }

    /// What reading a folder's `moved.json` found.
    public enum Reading: Sendable, Equatable {
        /// No pointer: the container has not moved.
        case none
        case valid(ForwardPointer)
        /// A pointer that does not check out (why, in a sentence's words): never followed.
        case refused(String)
    }

    /// Parses a pointer's (opened) bytes for the container `containerID`; `plain`: the
    /// container is not encrypted, so 0.15.0's bare pointer is read too.
    public static func parse(_ bytes: [UInt8], containerID: String, plain: Bool) -> Reading {
        switch Envelope.verify(bytes, expecting: .init(kind: .moved)) {
        case .valid(let envelope):
            guard case .object(let fields) = envelope.body, fields.count == 2,
                let id = fields["containerID"]?.stringValue, let place = fields["movedTo"]?.stringValue
            else { return .refused("its body is not a forward pointer") }
            guard id == containerID else { return .refused("it belongs to another container (\(id))") }
            guard isValidPlace(place) else { return .refused("the place it names is not a valid place") }
            return .valid(ForwardPointer(place: place, containerID: id))
        case .unsupportedFormat(let format):
            return .refused("it was written in format \(format), which this build does not read")
        case .notArrivedYet(let reason):
            guard plain, bytes.first == UInt8(ascii: "{"), let legacy = legacy(bytes) else {
                return .refused("it does not check out (\(reason))")
            }
            return legacy
        }
    }

    /// 0.15.0's `{"movedTo": "<place>"}`: exactly that one key, strictly parsed.
    static func legacy(_ bytes: [UInt8]) -> Reading? {
        // Not JSON at all: the caller reports the envelope's reason, which says more.
        guard let value = try? JSONValue(parsing: Data(bytes)), case .object(let fields) = value else { return nil }
        guard fields.count == 1, let place = fields["movedTo"]?.stringValue else {
            return .refused("it is neither a forward pointer nor an older build's {\"movedTo\": …}")
        }
        guard isValidPlace(place) else { return .refused("the place it names is not a valid place") }
        return .valid(ForwardPointer(place: place, containerID: nil))
    }
}
