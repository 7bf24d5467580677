import NotesCore

/// The seal of an encrypted container's files (SYNC-FORMAT rule 14), applied where files are
/// written and read: everything under `private/` is sealed under its path relative to the
/// folder; `container.json` and the keys files are plain envelopes.
extension DirectoryCloudFolder {
    /// Whether the file at `path` is sealed in this folder.
    func isSealed(_ path: String) -> Bool { seal != nil && path.hasPrefix(layout.privateDirectory + "/") }

    /// The name a file is sealed under: its path relative to the folder.
    func sealName(_ path: String) -> String {
        path.hasPrefix(layout.root + "/") ? String(path.dropFirst(layout.root.count + 1)) : path
    }

    /// Whether the file at `path` carries its writer's signature inside its seal: every sealed
    /// file of a shared place but a chunk (SYNC-FORMAT rule 20).
    func isSigned(_ path: String) -> Bool {
        sharing != nil && isSealed(path) && !path.hasPrefix(layout.privateDirectory + "/assets/")
    }

    /// The bytes written at `path`: sealed when the folder seals it, signed first in a shared place.
    func sealed(_ bytes: [UInt8], at path: String) -> [UInt8] {
        guard let seal, isSealed(path) else { return bytes }
        let name = sealName(path)
        guard let sharing, isSigned(path) else { return seal.seal(bytes, name: name) }
        return seal.seal(sharing.signed(bytes, name: name), name: name)
    }

    /// The plaintext of bytes read at `path`, sealed as `name` (a renamed copy is sealed under
    /// its original's path); the reason when the seal does not open.
    func opened(_ bytes: [UInt8], at path: String, sealedAs name: String? = nil) -> Result<[UInt8], SealError> {
        guard let seal, isSealed(path) else { return .success(bytes) }
        let plain: [UInt8]
        do {
            plain = try seal.open(bytes, name: sealName(name ?? path))
        } catch {
            return .failure(error)
        }
        guard let sharing, isSigned(path) else { return .success(plain) }
        do {
            return .success(try sharing.verified(plain, name: sealName(name ?? path)))
        } catch {
            return .failure(.refused(error.message))
        }
    }

    /// The read cap for a file of at most `plaintext` bytes at `path`.
    func readCap(_ plaintext: Int, at path: String) -> Int {
        isSealed(path)
            ? FolderSeal.sealedSize(forAtMost: plaintext + (isSigned(path) ? SharedAccess.lineBytes : 0)) : plaintext
    }

    /// Reads a file and opens its seal: nil when missing; a file whose seal does not open reads
    /// as bytes no envelope accepts, so every reader treats it as a file that does not check out.
    /// A file sealed with a newer key than this device holds throws `keyChanged`.
    func readOpened(_ path: String, maxBytes: Int) throws -> [UInt8]? {
        guard let bytes = try io.readIfPresent(path, maxBytes: readCap(maxBytes, at: path)) else { return nil }
        switch opened(bytes, at: path) {
        case .success(let plain): return plain
        case .failure(.newerKey(let number, let held)): throw keyChanged(number, held: held)
        case .failure: return []
        }
    }

    /// The error of a file sealed with key `number` while this device holds `held` keys: the key
    /// was changed on another device (`sync passphrase --new-key`), and this device writes
    /// nothing more with its old key, which others may no longer trust, until it is given the
    /// passphrase (rule 14).
    func keyChanged(_ number: Int, held: Int) -> CloudError {
        if sharing != nil {
            return CloudError(
                .notAuthenticated,
                "this share's notes are now sealed with the key of epoch \(number), which has not reached you (you "
                    + "were removed, or the owner's new key is still on its way); what you had stays here",
                path: layout.root)
        }
        return CloudError(
            .notAuthenticated,
            "the key of the encrypted cloud folder was changed on another device (key \(number); this device holds "
                + "\(held)); nothing more is written with the old one: run `cloudnotes sync` with the passphrase to take "
                + "up the new key",
            path: layout.root)
    }
}

extension DirectoryCloudFolder {
    /// Checks this folder's seal against what is already sealed in the container (rule 14): a
    /// key that opens none of its device files and none of its zone folder names is not this
    /// container's key (a remembered key damaged on disk, or another container's), and a device
    /// holding it must write nothing, as with a wrong passphrase. A container with nothing
    /// sealed yet has nothing to check against. Throws `notAuthenticated`.
    public func checkSeal() throws {
        guard let seal else { return }
        let devices = try io.listIfPresent(layout.devicesDirectory).compactMap(CloudName.deviceFile)
        for device in devices {
            let path = layout.deviceFile(device)
            // An unreadable device file proves nothing either way: the next one is tried.
            guard let bytes = try? io.readIfPresent(path, maxBytes: readCap(Self.maxSmallFileBytes, at: path)) else {
                continue
            }
            if case .success = opened(bytes, at: path) { return }
        }
        let zones = try io.listIfPresent(layout.zonesDirectory).filter { !Self.mayBeInAnEmptyFolder($0) }
        if zones.contains(where: { seal.zone(folderName: $0) != nil }) { return }
        guard devices.isEmpty, zones.isEmpty else {
            throw CloudError(
                .notAuthenticated,
                "the key this device holds does not open this encrypted cloud folder (none of its \(devices.count) "
                    + "device file(s) and \(zones.count) notebook folder(s) opens with it); nothing was written",
                path: layout.root)
        }
    }
}
