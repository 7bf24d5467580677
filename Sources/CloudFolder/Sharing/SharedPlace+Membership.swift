import Crypto
import NotesCore

/// Changing a shared place's membership (SYNC-FORMAT rules 18 and 19): inviting, removing, a
/// member's answer, and opening an epoch's key.
extension SharedPlace {
    /// Invites `code` with `role`: entry n+1 lists them `invited`, then the current epoch's key
    /// is boxed for them, and each earlier epoch's key the inviter holds (past boxes), so what
    /// was written before a removal opens for them too. The owner writes entries; an admin too where the storage writes each
    /// entry once (a bucket's `If-None-Match: *`), so two admins are ordered (D-147).
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
                if entry.epoch == head.epoch, try read(Self.boxPath(epoch: head.epoch, member: code.memberID)) == nil {
                    try writeBox(key, for: line.code, entry: entry, by: identity, share: state.share)
                    wrote = true
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
        try writeBox(key, for: code, entry: entry, by: identity, share: state.share)
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
                guard try read(Self.boxPath(epoch: head.epoch, member: other.id)) == nil else { continue }
                try writeBox(key, for: other.code, entry: head, by: identity, share: state.share)
                wrote = true
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
        try writeBox(key, for: identity.code, entry: entry, by: identity, share: state.share)
        try publish(
            SignedFile(kind: .member, share: state.share, body: entry.body, signedBy: identity).bytes,
            at: Self.entryPath(entry.number))
        for other in entry.members where other.status != .removed && other.id != identity.memberID {
            try writeBox(key, for: other.code, entry: entry, by: identity, share: state.share)
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

    /// Opens `identity`'s key of `epoch` (rule 19): the box must name an entry checked, of that
    /// epoch (of a later one for a past box), listing them not removed, be signed by an owner or
    /// admin of that entry, and open to the key whose id the epoch's entries carry.
    public func epochKey(_ epoch: Int64, for identity: AccountIdentity, state: ShareState) throws(ShareError)
        -> SymmetricKey
    {
        let member = identity.memberID
        for (relative, past) in [
            (Self.boxPath(epoch: epoch, member: member), false), (Self.pastBoxPath(epoch: epoch, member: member), true),
        ] {
            guard let bytes = try read(relative) else { continue }
            let file = try SignedFile(parsing: bytes, kind: .epochKey, share: state.share, path: path(relative))
            let box = try EpochKeyBox(body: file.body)
            guard let entry = state.log.entry(box.entry), past ? entry.epoch > epoch : entry.epoch == epoch,
                let keyed = state.log.entries.last(where: { $0.epoch == epoch })
            else {
                throw ShareError(.notAllowed, "\(path(relative)) names an entry not checked here, or of another epoch")
            }
            guard let line = entry.member(member), line.status != .removed else {
                throw ShareError(.notForYou, "\(path(relative)) is for an entry that does not list you")
            }
            guard let signer = entry.member(file.signer), signer.canInvite, file.isSigned(by: signer.code) else {
                throw ShareError(.notAllowed, "\(path(relative)) is not signed by the owner or an admin")
            }
            let key = try box.open(with: identity, share: state.share, epoch: epoch)
            guard MembershipEntry.keyID(of: key) == keyed.epochKeyID else {
                throw ShareError(
                    .notAllowed, "\(path(relative)) holds another key than the one entry \(keyed.number) names")
            }
            return key
        }
        throw ShareError(
            .missing,
            "no key of epoch \(epoch) for you in this share yet (waiting for the key, or you are not a member of it)")
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
            let relative = Self.pastBoxPath(epoch: epoch, member: code.memberID)
            guard try read(relative) == nil, try read(Self.boxPath(epoch: epoch, member: code.memberID)) == nil else {
                continue
            }
            let key: SymmetricKey
            do {
                key = try epochKey(epoch, for: identity, state: state)
            } catch  where error.code == .missing {
                continue
            }
            let box = try EpochKeyBox.seal(key, to: code, share: state.share, epoch: epoch, entry: entry.number)
            try publish(
                SignedFile(kind: .epochKey, share: state.share, body: box.body, signedBy: identity).bytes, at: relative)
            wrote = true
        }
        return wrote
    }

    /// Writes `key`'s box for `code` under `entry`. A box this identity already wrote there for
    /// the same entry (a retry: HPKE's seal is randomized, so its bytes differ) counts as written.
    func writeBox(
        _ key: SymmetricKey, for code: IdentityCode, entry: MembershipEntry, by identity: AccountIdentity, share: String
    ) throws(ShareError) {
        let relative = Self.boxPath(epoch: entry.epoch, member: code.memberID)
        // `try?`: a file that does not parse is not ours; `publish` below refuses to replace it.
        if let existing = try read(relative),
            let file = try? SignedFile(parsing: existing, kind: .epochKey, share: share, path: relative),
            file.isSigned(by: identity.code), (try? EpochKeyBox(body: file.body))?.entry == entry.number
        {
            return
        }
        let box = try EpochKeyBox.seal(key, to: code, share: share, epoch: entry.epoch, entry: entry.number)
        try publish(SignedFile(kind: .epochKey, share: share, body: box.body, signedBy: identity).bytes, at: relative)
    }

    /// The key of this owner's own box of `epoch`, written for `entry` by a removal cut short;
    /// nil when there is none. Only a box this identity signed for that entry counts: one
    /// planted by another writer of the place could hold a key they know.
    func ownPendingKey(epoch: Int64, entry: Int64, _ identity: AccountIdentity, _ state: ShareState) throws(ShareError)
        -> SymmetricKey?
    {
        let relative = Self.boxPath(epoch: epoch, member: identity.memberID)
        guard let bytes = try read(relative) else { return nil }
        let file = try SignedFile(parsing: bytes, kind: .epochKey, share: state.share, path: path(relative))
        let box = try EpochKeyBox(body: file.body)
        guard file.isSigned(by: identity.code), box.entry == entry else {
            throw ShareError(
                .placeTaken, "\(path(relative)) holds a key box this removal did not write; it is never overwritten")
        }
        return try box.open(with: identity, share: state.share, epoch: epoch)
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
