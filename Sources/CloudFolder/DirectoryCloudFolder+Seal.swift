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

    /// The bytes written at `path`: sealed when the folder seals it.
    func sealed(_ bytes: [UInt8], at path: String) -> [UInt8] {
        guard let seal, isSealed(path) else { return bytes }
        return seal.seal(bytes, name: sealName(path))
    }

    /// The plaintext of bytes read at `path`, sealed as `name` (a renamed copy is sealed under
    /// its original's path); the reason when the seal does not open.
    func opened(_ bytes: [UInt8], at path: String, sealedAs name: String? = nil) -> Result<[UInt8], SealError> {
        guard let seal, isSealed(path) else { return .success(bytes) }
        do {
            return .success(try seal.open(bytes, name: sealName(name ?? path)))
        } catch {
            return .failure(error)
        }
    }

    /// The read cap for a file of at most `plaintext` bytes at `path`.
    func readCap(_ plaintext: Int, at path: String) -> Int {
        isSealed(path) ? FolderSeal.sealedSize(forAtMost: plaintext) : plaintext
    }

    /// Reads a file and opens its seal: nil when missing; a file whose seal does not open reads
    /// as bytes no envelope accepts, so every reader treats it as a file that does not check out.
    func readOpened(_ path: String, maxBytes: Int) throws -> [UInt8]? {
        guard let bytes = try io.readIfPresent(path, maxBytes: readCap(maxBytes, at: path)) else { return nil }
        return (try? opened(bytes, at: path).get()) ?? []
    }
}
