import Crypto
import Foundation
import NotesCore

/// What a folder needs to hold a shared place's notes (SYNC-FORMAT rule 20, "Notes in a shared
/// place"): the membership log as checked, and the identity that signs this device's files.
///
/// Every sealed file but a chunk carries, inside its seal, a line after its bytes: the
/// `BatchSignature` of its name and bytes by its writer's account key, naming the entry it
/// relies on. A reader opens it only when that signature is allowed (`verified`); a chunk
/// needs none, since a signed record names it by its keyed hash.
public struct SharedAccess: Sendable {
    public let log: MembershipLog
    public let identity: AccountIdentity
    /// The device reading the place, for reading its membership again (nil: never read again).
    public let device: DeviceID?
    /// Told the place as read again when its membership has grown (`followingMembership`), before
    /// its keys are opened: how a running engine learns this account's new role or removal.
    public let onMembership: (@Sendable (ShareState) -> Void)?

    public init(
        log: MembershipLog, identity: AccountIdentity, device: DeviceID? = nil,
        onMembership: (@Sendable (ShareState) -> Void)? = nil
    ) {
        self.log = log
        self.identity = identity
        self.device = device
        self.onMembership = onMembership
    }

    public var share: String { log.share }

    /// The most bytes the signature line adds (its JSON is about 330 bytes).
    static let lineBytes = 512

    /// What the signature covers: the file's name (its path in the place), a LF, its bytes.
    static func covered(_ bytes: [UInt8], name: String) -> [UInt8] { Array(name.utf8) + [0x0A] + bytes }

    /// `bytes` with this identity's signature line after them, relying on the newest entry.
    func signed(_ bytes: [UInt8], name: String) -> [UInt8] {
        let signature = BatchSignature(
            signing: Self.covered(bytes, name: name), share: share, entry: log.head.number, by: identity)
        return bytes + signature.json.canonicalBytes + [0x0A]
    }

    /// The bytes of a signed file read at `name` and its signer, once its signature line is
    /// allowed: a device file may be signed by any member not removed, every other file by an
    /// owner, admin or read-write member (rule 20), held to their removal's cutoff when removed
    /// since.
    func checked(_ signed: [UInt8], name: String) throws(ShareError) -> (bytes: [UInt8], signer: String) {
        guard signed.last == 0x0A, let start = signed.dropLast().lastIndex(of: 0x0A).map({ $0 + 1 }) else {
            throw ShareError(.notAllowed, "\(name) carries no signature")
        }
        let bytes = Array(signed[..<start])
        let json: JSONValue
        do {
            json = try JSONValue(parsing: Data(signed[start..<(signed.count - 1)]))
        } catch {
            throw ShareError(.notAllowed, "\(name) carries no signature")
        }
        let signature = try BatchSignature(json: json)
        let covered = Self.covered(bytes, name: name)
        if let device = Self.deviceFileOwner(name) {
            try signature.checkMember(covered, log: log, device: device)
        } else {
            let writer = Self.writer(of: name)
            try signature.check(covered, log: log, device: writer?.device ?? "", seq: writer?.seq ?? CloudLayout.maxSeq)
        }
        return (bytes, signature.signer)
    }

    /// The bytes of a signed file read at `name`, once its signature line is allowed (`checked`).
    func verified(_ signed: [UInt8], name: String) throws(ShareError) -> [UInt8] {
        try checked(signed, name: name).bytes
    }

    /// The person whose account signed a file that checks out, as the newest entry names them;
    /// nil for this account's own files (its devices are named as in a private folder).
    func person(signing signed: [UInt8], name: String) -> String? {
        // `try?`: a file that does not check out names nobody; its reader refuses it anyway.
        guard let signer = try? checked(signed, name: name).signer, signer != identity.memberID else { return nil }
        return log.head.member(signer)?.code.name
    }

    /// The device of `private/devices/<dev>.json`.
    static func deviceFileOwner(_ name: String) -> String? {
        let parts = name.split(separator: "/")
        guard parts.count == 3, parts[0] == "private", parts[1] == "devices" else { return nil }
        return CloudName.deviceFile(String(parts[2]))?.rawValue
    }

    /// The writer and seq a log file's or snapshot's name carries (a cutoff is by them).
    static func writer(of name: String) -> (device: String, seq: Int64)? {
        let parts = name.split(separator: "/").map(String.init)
        guard parts.count >= 5, parts[0] == "private", parts[1] == "zones" else { return nil }
        if parts.count == 7, parts[3] == "log", let seq = Int64(parts[6].dropLast(5)) { return (parts[4], seq) }
        if parts.count == 5, parts[3] == "snapshots" {
            let stem = parts[4].dropLast(5).split(separator: "-")
            if stem.count == 2, let seq = Int64(stem[1]) { return (String(stem[0]), seq) }
        }
        return nil
    }
}
