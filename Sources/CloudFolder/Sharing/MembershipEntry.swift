import Crypto
import Foundation
import NotesCore

/// One entry of a shared place's membership log (SYNC-FORMAT rule 18): the whole member list,
/// the epoch and its key's id, and the hash of the entry before, so the entries form a chain.
public struct MembershipEntry: Sendable, Equatable {
    public static let maxMembers = 256
    static let keyIDContext = Array("cloudnotes epoch key id v1".utf8)

    /// n, from 1.
    public var number: Int64
    public var epoch: Int64
    /// The id of the epoch's key (`keyID(of:)`).
    public var epochKeyID: String
    /// Sorted by member id, each once.
    public var members: [ShareMember]
    /// The hex SHA-256 of entry n−1's file; empty for entry 1.
    public var previous: String

    public init(number: Int64, epoch: Int64, epochKeyID: String, members: [ShareMember], previous: String) {
        self.number = number
        self.epoch = epoch
        self.epochKeyID = epochKeyID
        self.members = members.sorted { $0.id < $1.id }
        self.previous = previous
    }

    /// The key id an entry commits to (rule 19): the first 16 bytes, in hex, of SHA-256 of
    /// `cloudnotes epoch key id v1` and the key.
    public static func keyID(of key: SymmetricKey) -> String {
        let bytes = key.withUnsafeBytes { Array($0) }
        return FolderSeal.hex(Array(SHA256.hash(data: keyIDContext + bytes)).prefix(16))
    }

    public func member(_ id: String) -> ShareMember? { members.first { $0.id == id } }

    /// The owner's line.
    public var owner: ShareMember? { members.first { $0.role == .owner } }

    var body: JSONValue {
        .object([
            "entry": .int(number), "epoch": .int(epoch), "epochKey": .string(epochKeyID),
            "members": .array(members.map(\.json)), "previous": .string(previous),
        ])
    }

    /// Reads an entry's body, checking what one entry can say on its own: the member lines,
    /// their order, and one owner. The chain is `MembershipLog`'s.
    init(body: JSONValue) throws(ShareError) {
        var checked: [String: IdentityCode] = [:]
        try self.init(body: body, checked: &checked)
    }

    /// An entry read with the codes a log has already verified (`ShareMember(json:checked:)`).
    init(body: JSONValue, checked: inout [String: IdentityCode]) throws(ShareError) {
        func malformed(_ why: String) -> ShareError { ShareError(.malformed, "a membership entry \(why)") }
        guard case .object(let fields) = body, fields.count == 5, let number = body["entry"]?.intValue,
            let epoch = body["epoch"]?.intValue, let keyID = body["epochKey"]?.stringValue,
            let lines = body["members"]?.arrayValue, let previous = body["previous"]?.stringValue
        else { throw malformed("lacks a field, or has one too many") }
        guard (1...CloudLayout.maxSeq).contains(number), (1...CloudLayout.maxSeq).contains(epoch) else {
            throw malformed("has an entry or epoch number out of range")
        }
        guard IdentityCode.isMemberID(keyID) else { throw malformed("has an epoch key id that is not 32 hex digits") }
        guard previous.isEmpty || (previous.utf8.count == 64 && FolderSeal.unhex(previous) != nil) else {
            throw malformed("has a previous hash that is not a SHA-256")
        }
        guard (1...Self.maxMembers).contains(lines.count) else {
            throw malformed("lists \(lines.count) members (1 to \(Self.maxMembers))")
        }
        var members: [ShareMember] = []
        for line in lines { members.append(try ShareMember(json: line, checked: &checked)) }
        guard zip(members, members.dropFirst()).allSatisfy({ $0.id < $1.id }) else {
            throw malformed("lists members out of order or twice")
        }
        guard members.filter({ $0.role == .owner }).count == 1,
            members.contains(where: { $0.role == .owner && $0.status == .accepted })
        else { throw malformed("does not list exactly one owner, accepted") }
        self.init(number: number, epoch: epoch, epochKeyID: keyID, members: members, previous: previous)
    }
}
