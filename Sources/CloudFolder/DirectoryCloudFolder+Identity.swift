import NotesCore

/// The account's identity kept in an encrypted container (SYNC-FORMAT "Identities"):
/// `private/identity.json`, write-once and sealed, so every device of the account adopts the
/// same keys. A plain container never holds one.
extension DirectoryCloudFolder {
    var identityFile: String { layout.privateDirectory + "/identity.json" }

    /// The identity the container holds; nil when it has none yet. Throws when the container is
    /// not encrypted, or when the file there does not check out (damaged or planted: never
    /// replaced, since others may hold the identity it had).
    public func readIdentity() throws -> AccountIdentity? {
        try requireEncryptedForIdentity()
        guard let bytes = try readOpened(identityFile, maxBytes: Self.maxSmallFileBytes) else { return nil }
        // A body that does not parse is refused below, said, and never replaced: nothing is lost.
        guard case .valid(let envelope) = Envelope.verify(bytes, expecting: .init(kind: .identity)),
            let identity = try? AccountIdentity(json: envelope.body)
        else {
            throw CloudError(
                .badContainer,
                "the account's identity in the cloud folder does not check out (damaged, or not written by cloudnotes); "
                    + "nothing was replaced",
                path: identityFile)
        }
        return identity
    }

    /// Publishes `identity` as the account's (write-once) and returns the one that stands: this
    /// one, or the one another device published first.
    public func publishIdentity(_ identity: AccountIdentity, device: DeviceID, hlc: HLC) throws -> AccountIdentity {
        try requireEncryptedForIdentity()
        try io.ensureDirectory(layout.privateDirectory)
        let envelope = Envelope(kind: .identity, device: device.rawValue, hlc: hlc, body: identity.json)
        do {
            _ = try publishOnce(envelope.encoded, at: identityFile, device: device)
            return identity
        } catch let error as CloudError where error.code == .serverRecordChanged {
            guard let standing = try readIdentity() else { throw error }
            return standing
        }
    }

    private func requireEncryptedForIdentity() throws {
        try requireContainer()
        guard seal != nil else {
            throw CloudError(
                .badContainer,
                "a plain cloud folder never holds the account's private keys: anyone who can read it could act as you",
                path: layout.root)
        }
    }
}
