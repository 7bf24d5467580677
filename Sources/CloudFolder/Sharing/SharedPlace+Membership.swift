import Crypto
import NotesCore

/// Changing a shared place's membership (SYNC-FORMAT rules 18 and 19): inviting, removing, a
/// member's answer, and opening an epoch's key.
extension SharedPlace {
    /// Invites `code` with `role`: entry n+1 lists them `invited`, then the current epoch's key
    /// is boxed for them, and each earlier epoch's key the inviter holds (past boxes), so what
    /// was written before a removal opens for them too. The owner writes entries; an admin too
    /// where the storage writes each entry once (a bucket's `If-None-Match: *`), so two admins
    /// are ordered (D-147).
    public func invite(
        _ code: IdentityCode, role: ShareRole, by identity: AccountIdentity, after checkpoint: ShareCheckpoint?
    ) throws(ShareError) -> ShareState {
        let state = try read(after: checkpoint)
        try requireMembershipWriter(identity, state)
        guard role != .owner else { throw ShareError(.invalid, "a share has one owner; invite as admin instead") }
        let head = state.log.head
        let key = try epochKey(head.epoch, for: identity, state: state)
        if let line = head.member(code.memberID), line.status != .removed {
            // An invitation cut short after its entry, or made by a build that gave no keys of
            // earlier epochs: the missing boxes are written now.
            var wrote = false
            if let since = state.invitedAt(code.memberID), let entry = state.log.entry(since) {
                if entry.epoch == head.epoch {
                    wrote = try writeBox(key, for: line.code, entry: entry, by: identity, state: state)
                }
                wrote = try writePastBoxes(for: line.code, entry: entry, by: identity, state: state) || wrote
            }
            guard wrote else {
                throw ShareError(
                    .invalid, "\(line.code.name) (\(code.fingerprint)) is already a member, \(line.status.rawValue)")
            }
            return try read(after: state.log.checkpoint)
        }
        var members = head.members.filter { $0.id != code.memberID }
        members.append(ShareMember(code: code, role: role, status: .invited))
        let entry = MembershipEntry(
            number: head.number + 1, epoch: head.epoch, epochKeyID: head.epochKeyID, members: members,
            previous: state.log.checkpoint.sha256)
        try publish(
            SignedFile(kind: .member, share: state.share, body: entry.body, signedBy: identity).bytes,
            at: Self.entryPath(entry.number))
        try writeBox(key, for: code, entry: entry, by: identity, state: state)
        try writePastBoxes(for: code, entry: entry, by: identity, state: state)
        return try read(after: state.log.checkpoint)
    }

    /// Removes a member: entry n+1 lists them `removed` (with `cutoff`, rule 20) and starts a
    /// new epoch, whose fresh key is boxed for every member who remains (rule 19). The removed
    /// member keeps what they already had.
    public func remove(
        _ member: String, by identity: AccountIdentity, cutoff: [String: Int64] = [:],
        after checkpoint: ShareCheckpoint?
    ) throws(ShareError) -> ShareState {
        let state = try read(after: checkpoint)
        try requireMembershipWriter(identity, state)
        let head = state.log.head
        guard let line = head.member(member) else { throw ShareError(.invalid, "no member \(member) to remove") }
        if line.status == .removed {
            // A removal cut short after its entry: the boxes of those who remain are written now.
            let key = try epochKey(head.epoch, for: identity, state: state)
            var wrote = false
            for other in head.members where other.status != .removed && other.id != identity.memberID {
                wrote = try writeBox(key, for: other.code, entry: head, by: identity, state: state) || wrote
            }
            guard wrote else { throw ShareError(.invalid, "\(line.code.name) is already removed from this share") }
            return try read(after: state.log.checkpoint)
        }
        guard line.role != .owner else { throw ShareError(.invalid, "the owner cannot be removed from their share") }
        // A removal cut short left this owner's box of the new epoch, and maybe nothing else: its
        // key is the one to go on with (another would not fit the box already there).
        let key =
            try ownPendingKey(epoch: head.epoch + 1, entry: head.number + 1, identity, state)
            ?? SymmetricKey(size: .bits256)
        let members = head.members.map { other in
            other.id == member
                ? ShareMember(code: other.code, role: other.role, status: .removed, cutoff: cutoff) : other
        }
        let entry = MembershipEntry(
            number: head.number + 1, epoch: head.epoch + 1, epochKeyID: MembershipEntry.keyID(of: key),
            members: members, previous: state.log.checkpoint.sha256)
        // The owner's own box before the entry: a removal cut anywhere keeps the new key.
        try writeBox(key, for: identity.code, entry: entry, by: identity, state: state)
        try publish(
            SignedFile(kind: .member, share: state.share, body: entry.body, signedBy: identity).bytes,
            at: Self.entryPath(entry.number))
        for other in entry.members where other.status != .removed && other.id != identity.memberID {
            try writeBox(key, for: other.code, entry: entry, by: identity, state: state)
        }
        return try read(after: state.log.checkpoint)
    }

    /// Writes `identity`'s answer (accepted, left) as of the newest entry, which must list them.
    /// Accepting also opens their box of the current epoch (returned): the key has arrived.
    @discardableResult
    public func answer(
        _ answer: ShareAnswer, by identity: AccountIdentity, after checkpoint: ShareCheckpoint?
    ) throws(ShareError) -> (state: ShareState, key: SymmetricKey?) {
        let state = try read(after: checkpoint)
        let head = state.log.head
        guard let line = head.member(identity.memberID), line.status != .removed else {
            throw ShareError(
                .notForYou,
                "this share (owner \(state.owner.name), \(state.owner.fingerprint)) has no invitation for you")
        }
        guard line.role != .owner else { throw ShareError(.invalid, "the owner does not answer their own share") }
        let key = answer == .accepted ? try epochKey(head.epoch, for: identity, state: state) : nil
        let file = SignedFile(
            kind: .answer, share: state.share,
            body: .object(["answer": .string(answer.rawValue), "entry": .int(head.number)]), signedBy: identity)
        try publish(file.bytes, at: Self.answerPath(member: identity.memberID, entry: head.number, answer: answer))
        return (try read(after: state.log.checkpoint), key)
    }

    /// Opens `identity`'s key of `epoch` (rule 19) from the first of their boxes that checks
    /// out: the epoch's box, the past box, then any spare box (written where another file took
    /// one of those names first). A box must name an entry checked, of that epoch (of a later one
    /// for a past box, either for a spare), listing them not removed, be signed by an owner or
    /// admin of that entry, and open to the key whose id the epoch's entries carry. When none
    /// does, the first refusal is thrown, naming its file.
    public func epochKey(_ epoch: Int64, for identity: AccountIdentity, state: ShareState) throws(ShareError)
        -> SymmetricKey
    {
        let member = identity.memberID
        var refusal: ShareError?
        func open(_ relative: String, _ name: BoxName) throws(ShareError) -> SymmetricKey? {
            guard let bytes = try read(relative) else { return nil }
            do throws(ShareError) {
                let (box, _) = try checkedBox(
                    bytes, at: relative, name, epoch: epoch, member: member, share: state.share,
                    entries: state.log.entry)
                guard let keyed = state.log.entries.last(where: { $0.epoch == epoch }) else {
                    throw ShareError(
                        .notAllowed, "\(path(relative)) names an entry not checked here, or of another epoch")
                }
                let key = try box.open(with: identity, share: state.share, epoch: epoch)
                guard MembershipEntry.keyID(of: key) == keyed.epochKeyID else {
                    throw ShareError(
                        .notAllowed, "\(path(relative)) holds another key than the one entry \(keyed.number) names")
                }
                return key
            } catch  where error.code != .storage {
                refusal = refusal ?? error
                return nil
            }
        }
        if let key = try open(Self.boxPath(epoch: epoch, member: member), .usual) { return key }
        if let key = try open(Self.pastBoxPath(epoch: epoch, member: member), .past) { return key }
        for relative in try spareBoxPaths(epoch: epoch, member: member) {
            if let key = try open(relative, .spare) { return key }
        }
        throw refusal
            ?? ShareError(
                .missing,
                "no key of epoch \(epoch) for you in this share yet (waiting for the key, or you are not a member of it)"
            )
    }

    /// Which of a member's box names a box was found under: what its entry's epoch may be.
    enum BoxName {
        /// `<member>.json`: an entry of the box's epoch.
        case usual
        /// `<member>.past.json`: a later entry, which invited them after that epoch ended.
        case past
        /// `<member>.<tag>.json`: either.
        case spare

        func allows(entryEpoch: Int64, boxEpoch: Int64) -> Bool {
            switch self {
            case .usual: entryEpoch == boxEpoch
            case .past: entryEpoch > boxEpoch
            case .spare: entryEpoch >= boxEpoch
            }
        }
    }

    /// The box in `bytes`, checked as far as anyone can without opening it (rule 19): it names
    /// an entry `entries` knows, whose epoch `name` allows, listing `member` not removed, and is
    /// signed by an owner or admin of that entry. Returns the box and its signer.
    func checkedBox(
        _ bytes: [UInt8], at relative: String, _ name: BoxName, epoch: Int64, member: String, share: String,
        entries: (Int64) -> MembershipEntry?
    ) throws(ShareError) -> (box: EpochKeyBox, signer: String) {
        let file = try SignedFile(parsing: bytes, kind: .epochKey, share: share, path: path(relative))
        let box = try EpochKeyBox(body: file.body)
        guard let entry = entries(box.entry), name.allows(entryEpoch: entry.epoch, boxEpoch: epoch) else {
            throw ShareError(.notAllowed, "\(path(relative)) names an entry not checked here, or of another epoch")
        }
        guard let line = entry.member(member), line.status != .removed else {
            throw ShareError(.notForYou, "\(path(relative)) is for an entry that does not list you")
        }
        guard let signer = entry.member(file.signer), signer.canInvite, file.isSigned(by: signer.code) else {
            throw ShareError(.notAllowed, "\(path(relative)) is not signed by the owner or an admin")
        }
        return (box, file.signer)
    }

    /// The spare boxes of `member` in `epoch`'s folder, in name order.
    func spareBoxPaths(epoch: Int64, member: String) throws(ShareError) -> [String] {
        let folder = "epochs/\(Self.number(epoch))"
        let names = try storage("listing \(folder)") {
            try io.isFolder(path(folder)) ? try io.list(path(folder)) : []
        }
        return names.filter { Self.isSpareBoxName($0, member: member) }.sorted().map { folder + "/" + $0 }
    }

    /// Boxes each key of the epochs before `entry`'s that `identity` holds for `code`, whom
    /// `entry` invites, as past boxes relying on `entry` (rule 19): a newcomer reads what was
    /// written before a removal as every other member does. Returns whether it wrote one; a box
    /// already there (a retry) is kept, and an epoch whose key the inviter never had is skipped.
    @discardableResult
    func writePastBoxes(
        for code: IdentityCode, entry: MembershipEntry, by identity: AccountIdentity, state: ShareState
    ) throws(ShareError) -> Bool {
        var wrote = false
        for epoch in Int64(1)..<max(1, entry.epoch) {
            let key: SymmetricKey
            do {
                key = try epochKey(epoch, for: identity, state: state)
            } catch  where error.code == .missing {
                continue
            }
            wrote = try writeBox(key, epoch: epoch, for: code, entry: entry, by: identity, state: state) || wrote
        }
        return wrote
    }

    /// Writes `key`'s box of `epoch` (the entry's, or an earlier one: a past box) for `code`
    /// under `entry`, and returns whether it wrote one. A box of theirs already there that checks
    /// out as far as a writer can tell (a retry; another admin's) counts as written, unless they
    /// signed it themselves for someone else (an admin's own box of a removal that lost the race
    /// for its entry holds a key that is not the epoch's). When another file took the box's name
    /// first, it goes to a spare name, which no one can take first (rule 19).
    @discardableResult
    func writeBox(
        _ key: SymmetricKey, epoch: Int64? = nil, for code: IdentityCode, entry: MembershipEntry,
        by identity: AccountIdentity, state: ShareState
    ) throws(ShareError) -> Bool {
        let epoch = epoch ?? entry.epoch
        let member = code.memberID
        let entries = { (number: Int64) in number == entry.number ? entry : state.log.entry(number) }
        let usual =
            epoch == entry.epoch
            ? Self.boxPath(epoch: epoch, member: member) : Self.pastBoxPath(epoch: epoch, member: member)
        var taken = false
        for (relative, name) in [
            (Self.boxPath(epoch: epoch, member: member), BoxName.usual),
            (Self.pastBoxPath(epoch: epoch, member: member), .past),
        ]
            + (try spareBoxPaths(epoch: epoch, member: member).map { ($0, .spare) })
        {
            guard let bytes = try read(relative) else { continue }
            taken = taken || relative == usual
            do throws(ShareError) {
                let (_, signer) = try checkedBox(
                    bytes, at: relative, name, epoch: epoch, member: member, share: state.share, entries: entries)
                if signer != member || member == identity.memberID { return false }
            } catch  where error.code != .storage {
                continue
            }
        }
        let box = try EpochKeyBox.seal(key, to: code, share: state.share, epoch: epoch, entry: entry.number)
        let bytes = SignedFile(kind: .epochKey, share: state.share, body: box.body, signedBy: identity).bytes
        if !taken {
            do throws(ShareError) {
                try publish(bytes, at: usual)
                return true
            } catch  where error.code == .placeTaken {
                // Taken between the look and the write: the spare name below.
            }
        }
        let tag = FolderSeal.hex((0..<8).map { _ in UInt8.random(in: 0...255) })
        try publish(bytes, at: Self.spareBoxPath(epoch: epoch, member: member, tag: tag))
        return true
    }

    /// The key of this owner's own box of `epoch`, written for `entry` by a removal cut short;
    /// nil when there is none. Only a box this identity signed for that entry counts (under the
    /// box's name or a spare one): one planted by another writer of the place could hold a key
    /// they know, and is passed over.
    func ownPendingKey(epoch: Int64, entry: Int64, _ identity: AccountIdentity, _ state: ShareState) throws(ShareError)
        -> SymmetricKey?
    {
        let member = identity.memberID
        for relative in [Self.boxPath(epoch: epoch, member: member)] + (try spareBoxPaths(epoch: epoch, member: member))
        {
            guard let bytes = try read(relative),
                // `try?`: a file that does not parse was not written by this removal.
                let file = try? SignedFile(parsing: bytes, kind: .epochKey, share: state.share, path: path(relative)),
                file.isSigned(by: identity.code), let box = try? EpochKeyBox(body: file.body), box.entry == entry
            else { continue }
            return try box.open(with: identity, share: state.share, epoch: epoch)
        }
        return nil
    }

    /// Refuses unless `identity` may write the next entry: the owner always; an admin who has
    /// accepted, in a bucket, whose one store refuses a second write of a name from anywhere
    /// (`If-None-Match: *`), so two admins writing at once are ordered and the later is told to
    /// try again. A folder refuses it only on one disk, not across its replicas (D-147, D-164).
    func requireMembershipWriter(_ identity: AccountIdentity, _ state: ShareState) throws(ShareError) {
        if identity.memberID == state.owner.memberID { return }
        let owner = "\(state.owner.name), \(state.owner.fingerprint)"
        guard let line = state.log.head.member(identity.memberID), line.role == .admin, line.status != .removed,
            state.shownStatus(of: identity.memberID) == "accepted"
        else {
            throw ShareError(.notAllowed, "only the owner (\(owner)) or an admin changes the members of this share")
        }
        guard io is any KeyListingFileIO else {
            throw ShareError(
                .notAllowed,
                "in a folder only the owner (\(owner)) changes the members: a folder cannot order two admins "
                    + "writing at once (a bucket can)")
        }
    }
}
