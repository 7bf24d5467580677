import Crypto
import NotesCore

/// The folder of a shared place (SYNC-FORMAT "Notes in a shared place"): its container is the
/// place's `container.json` (format 7), checked against the share the membership names.
extension DirectoryCloudFolder {
    func readSharedContainer(_ sharing: SharedAccess) throws -> ContainerInfo {
        let bytes = try readContainerBytes()
        guard let bytes else {
            throw CloudError(
                .accountTemporarilyUnavailable,
                "the shared place's container.json is missing (folder unmounted, or not synced yet); nothing was written",
                path: layout.containerFile)
        }
        guard SharedPlace.sharedContainerID(bytes) == sharing.share else {
            throw CloudError(
                .badContainer, "the place holds another share than the one joined here; nothing was written",
                path: layout.containerFile)
        }
        return ContainerInfo(containerID: sharing.share, version: SharedPlace.containerFormat, encrypted: true)
    }

    /// The person whose account signed the device file at `path` of this shared place, as the
    /// newest entry names them: nil in a private folder, for this account's own devices, and
    /// for a file that does not check out (its reader refuses it anyway).
    func person(ofDeviceFile path: String) -> String? {
        guard let sharing, let seal,
            // `try?`: a file that cannot be read or opened names nobody; nothing is lost.
            let bytes = try? io.readIfPresent(path, maxBytes: readCap(Self.maxSmallFileBytes, at: path)),
            let plain = try? seal.open(bytes, name: sealName(path))
        else { return nil }
        return sharing.person(signing: plain, name: sealName(path))
    }
}

extension DirectoryCloudFolder {
    /// This shared place's folder with the membership as it stands now, when it has grown since
    /// `sharing` was read: a running engine (the app, `sync --watch`) takes up a new member, a
    /// removal and the new epoch's key at its next pass rather than at its next start. Kept as
    /// it is when the place cannot be read now or the new key has not reached this account: the
    /// pass then says why, as before. While the log has not grown this costs one read, of the
    /// entry after the newest checked; the whole place is read again only when it is there.
    func followingMembership(_ sharing: SharedAccess) -> DirectoryCloudFolder {
        guard let device = sharing.device else { return self }
        let place = SharedPlace(io: io, root: layout.root, device: device)
        do {
            guard try place.read(SharedPlace.entryPath(sharing.log.head.number + 1)) != nil else { return self }
            let state = try place.read(after: sharing.log.checkpoint)
            guard state.share == sharing.share, state.log.head.number > sharing.log.head.number else { return self }
            sharing.onMembership?(state)
            let next = try place.notesFolder(state, identity: sharing.identity, onMembership: sharing.onMembership)
            var following = self
            (following.seal, following.sharing) = (next.seal, next.sharing)
            return following
        } catch {
            return self
        }
    }
}

extension SharedPlace {
    /// The zone of the notebook a shared place holds: `s-` and the share id.
    public static func zone(ofShare share: String) -> String { "s-" + share }

    /// The folder that syncs this place's notes for `identity` (rule 20): sealed with every
    /// epoch key of the log, the current one sealing (an earlier epoch's key the member was not
    /// given, or whose box does not check out, stands as a random key that opens nothing).
    /// Throws `missing` until the current epoch's key has arrived for them. `onMembership` is
    /// told each newer membership a running engine's pass reads (`SharedAccess.onMembership`).
    public func notesFolder(
        _ state: ShareState, identity: AccountIdentity, onMembership: (@Sendable (ShareState) -> Void)? = nil
    ) throws(ShareError) -> DirectoryCloudFolder {
        let head = state.log.head.epoch
        guard head <= Int64(Keyring.maximumCount) else {
            throw ShareError(
                .invalid, "this share has had \(head) keys; this build reads at most \(Keyring.maximumCount)")
        }
        var keys: [SymmetricKey] = []
        for epoch in 1...head {
            do {
                keys.append(try epochKey(epoch, for: identity, state: state))
            } catch  where epoch < head && error.code != .storage {
                // An earlier epoch's box missing, or one that does not check out (a file another
                // writer of the place planted first): that epoch's files do not open and say so;
                // the share still does.
                keys.append(SymmetricKey(size: .bits256))
            }
        }
        guard let ring = Keyring(keys) else { throw ShareError(.invalid, "this share's keys do not make a key ring") }
        return DirectoryCloudFolder(
            sharedPlace: root, io: io, seal: FolderSeal(keyring: ring, containerID: state.share),
            sharing: SharedAccess(log: state.log, identity: identity, device: device, onMembership: onMembership))
    }
}
