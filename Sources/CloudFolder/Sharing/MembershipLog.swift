import Crypto
import NotesCore

/// A shared place's membership log as checked from entry 1 (SYNC-FORMAT rule 18): the entries
/// that check out, in order, and what they say about who may do what.
public struct MembershipLog: Sendable {
    public let share: String
    /// The owner as `shared.json` names them.
    public let owner: IdentityCode
    /// Entries 1…n, each checked against the one before.
    public private(set) var entries: [MembershipEntry] = []
    /// The hex SHA-256 of each entry's file.
    public private(set) var hashes: [String] = []
    /// The first entry that did not check out (the later ones are not read), and why.
    public private(set) var refused: (entry: Int64, reason: String)?
    /// The identity codes verified so far, by their text: each is verified once per log.
    private var checkedCodes: [String: IdentityCode] = [:]

    /// The newest entry checked (entry 1 always is: a log without it is not a share).
    public var head: MembershipEntry {
        guard let last = entries.last else { preconditionFailure("a checked log holds entry 1") }
        return last
    }

    public var checkpoint: ShareCheckpoint {
        ShareCheckpoint(entry: head.number, sha256: hashes[hashes.count - 1])
    }

    public func entry(_ number: Int64) -> MembershipEntry? {
        number >= 1 && number <= entries.count ? entries[Int(number - 1)] : nil
    }

    /// Whether `member` may write notes relying on entry `number` (rule 20).
    public func canWrite(_ member: String, at number: Int64) -> Bool {
        entry(number)?.member(member)?.canWrite ?? false
    }

    /// Whether `member` may sign entries and key boxes relying on entry `number` (rules 18, 19).
    public func canInvite(_ member: String, at number: Int64) -> Bool {
        entry(number)?.member(member)?.canInvite ?? false
    }

    /// Checks the files `members/1.json`, `members/2.json`, … (in order, up to the first
    /// missing one). An entry that does not check out ends the log (`refused`); entry 1 must.
    /// With `checkpoint`, a log whose checked part does not reach it, or holds other bytes
    /// there, is refused as rolled back or forked.
    public init(
        share: String, owner: IdentityCode, files: [[UInt8]], after checkpoint: ShareCheckpoint? = nil
    ) throws(ShareError) {
        self.share = share
        self.owner = owner
        for (index, bytes) in files.enumerated() {
            let number = Int64(index + 1)
            do {
                try append(bytes, number: number)
            } catch {
                refused = (number, error.message)
                break
            }
        }
        guard !entries.isEmpty else {
            throw ShareError(
                .malformed,
                refused.map { "the membership log's first entry does not check out: \($0.reason)" }
                    ?? "the membership log has no first entry")
        }
        guard let checkpoint else { return }
        guard checkpoint.entry <= entries.count else {
            let why =
                refused.map { "entry \($0.entry) does not check out: \($0.reason)" }
                ?? "it ends at entry \(entries.count)"
            throw ShareError(
                .rolledBack,
                "the membership list was rolled back: this device has checked entry \(checkpoint.entry), and now \(why); "
                    + "nothing from the place is applied")
        }
        guard hashes[Int(checkpoint.entry - 1)] == checkpoint.sha256 else {
            throw ShareError(
                .forked,
                "the membership list was changed: its entry \(checkpoint.entry) is not the one this device checked "
                    + "(two versions of the list, or tampering); nothing from the place is applied")
        }
    }

    /// Checks one entry against the one before (rule 18) and appends it.
    private mutating func append(_ bytes: [UInt8], number: Int64) throws(ShareError) {
        let path = SharedPlace.entryPath(number)
        let file = try SignedFile(parsing: bytes, kind: .member, share: share, path: path)
        let entry = try MembershipEntry(body: file.body, checked: &checkedCodes)
        func refuse(_ why: String) -> ShareError { ShareError(.notAllowed, "\(path) \(why)") }
        guard entry.number == number else { throw refuse("says it is entry \(entry.number)") }
        guard let owner = entry.owner, owner.code.memberID == self.owner.memberID else {
            throw refuse("names another owner than shared.json")
        }
        if let previous = entries.last {
            guard entry.previous == hashes[hashes.count - 1] else {
                throw refuse("does not follow entry \(number - 1)")
            }
            guard let signer = previous.member(file.signer), signer.canInvite, file.isSigned(by: signer.code) else {
                throw refuse("is not signed by the owner or an admin of entry \(number - 1)")
            }
            guard previous.members.allSatisfy({ entry.member($0.id) != nil }) else {
                throw refuse("drops a member (a member who goes stays, removed)")
            }
            let removes = previous.members.contains { $0.status != .removed && entry.member($0.id)?.status == .removed }
            guard entry.epoch == previous.epoch || entry.epoch == previous.epoch + 1 else {
                throw refuse("skips an epoch")
            }
            guard !removes || entry.epoch == previous.epoch + 1 else {
                throw refuse("removes a member without starting a new epoch")
            }
            guard (entry.epoch == previous.epoch) == (entry.epochKeyID == previous.epochKeyID) else {
                throw refuse("changes the epoch key without changing the epoch, or the other way round")
            }
        } else {
            guard entry.previous.isEmpty, entry.epoch == 1, entry.members.count == 1 else {
                throw refuse("is not a first entry (the owner alone, epoch 1)")
            }
            guard file.isSigned(by: self.owner) else { throw refuse("is not signed by the owner shared.json names") }
        }
        entries.append(entry)
        hashes.append(Envelope.sha256(bytes))
    }
}
