import ArgumentParser
import CloudFolder
import Foundation
import NotesCore
import NotesStore

/// `cloudnotes share`: sharing a notebook with other people (issue 24): the account's identity
/// (`share id`), a shared place's membership (`ShareMembers.swift`), and its notebook's notes
/// (`ShareCreate.swift`, synced by `ShareSync.swift`).
struct Share: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share a notebook with other people, end-to-end encrypted, roles checked by signatures.",
        discussion: """
            share create moves a notebook into a shared place (a folder a replicator shares, or \
            s3://bucket/prefix); invite people by their identity code (share id), who accept with \
            your fingerprint. Its notes then sync there with every `cloudnotes sync` (and \
            `sync --watch`), sealed with the place's key and signed; a read-only member cannot \
            change them, and a removed member receives nothing written afterwards. Not yet: the \
            app's display of shared notebooks, and your other devices following a shared notebook.
            """,
        subcommands: [
            ShareID.self, ShareCreate.self, ShareInit.self, ShareInvite.self, ShareAccept.self, ShareList.self,
            ShareRemove.self,
            ShareLeave.self,
        ],
        defaultSubcommand: ShareID.self)
}

/// `cloudnotes share id`: the account's identity code (one line to give to a person who will
/// share with you) and its fingerprint (to compare aloud), created on first use.
struct ShareID: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "id",
        abstract: "Print this account's identity code and fingerprint (created on first use).",
        discussion: """
            The identity code is one line holding this account's public keys (X25519 for \
            encryption, Ed25519 for signatures) and its display name, signed. The fingerprint, six \
            groups of four digits, is what you and the other person compare out of band. In an \
            encrypted cloud folder the identity is kept there, sealed, so every device of the \
            account has the same one; with a plain folder (or none) it stays in this data \
            directory, since the private keys must never lie in a folder others can read.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "The display name in the code (1 to 64 characters; kept on this device).") var name: String?
    @Flag(help: "Print JSON.") var json = false

    struct Printed: Encodable {
        var code: String
        var fingerprint: String
        var name: String
        /// `cloud` (in the encrypted container) or `device` (this data directory only).
        var kept: String
    }

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        let (identity, inCloud) = try Self.identity(context, store, name: name)
        let code = identity.code
        let printed = Printed(
            code: code.text, fingerprint: code.fingerprint, name: identity.name, kept: inCloud ? "cloud" : "device")
        if json { return try Output.json(printed) }
        Output.line("identity code: \(printed.code)")
        Output.line("fingerprint:   \(printed.fingerprint)")
        Output.line("name:          \(printed.name)")
        Output.line(
            inCloud
                ? "kept:          in the encrypted cloud folder, so every device of this account has the same identity"
                : "kept:          in this data directory only (the cloud folder is not encrypted, or none is set): "
                    + "encrypt it (`cloudnotes sync encrypt`) for your other devices to take the same identity")
    }

    /// This account's identity, created on first use (in the encrypted cloud folder when there
    /// is one, else in this data directory), under `name` when given; and whether the cloud
    /// folder keeps it.
    static func identity(_ context: Context, _ store: NoteStore, name: String?) throws -> (AccountIdentity, Bool) {
        if let name, !IdentityCode.isAcceptableName(name) {
            throw CLIError("a display name is 1 to 64 bytes of printable text; \(name.debugDescription) is not")
        }
        let local = try LocalIdentity.read(store)
        let defaultName = name ?? context.environment["USER"].flatMap { IdentityCode.isAcceptableName($0) ? $0 : nil }
        var identity: AccountIdentity
        let inCloud: Bool
        if let folder = try Self.encryptedFolder(context, store) {
            guard let device = DeviceID(store.deviceID) else {
                throw CLIError("this data directory has no valid device id")
            }
            do {
                if let standing = try folder.readIdentity() {
                    identity = standing
                } else {
                    let mine = local ?? .generate(name: defaultName ?? "me")
                    identity = try folder.publishIdentity(
                        mine, device: device, hlc: HLC(millis: Date().millisecondsSince1970))
                }
            } catch let error as CloudError {
                throw CLIError(error.message)
            }
            if let local, !local.sameKeys(as: identity) {
                Output.warn(
                    "this data directory held another identity (made while the cloud folder was plain); the account's "
                        + "identity in the encrypted cloud folder replaces it here")
            }
            // The name shown is this device's choice when it made one.
            if let local, local.sameKeys(as: identity) { identity = identity.renamed(local.name) }
            inCloud = true
        } else {
            identity = local ?? .generate(name: defaultName ?? "me")
            inCloud = false
        }
        if let name { identity = identity.renamed(name) }
        if local.map({ !$0.sameKeys(as: identity) || $0.name != identity.name }) ?? true {
            try LocalIdentity.write(identity, store)
        }
        return (identity, inCloud)
    }

    /// The encrypted cloud folder this data directory syncs with, unlocked; nil when none is
    /// configured or it is plain. A folder that cannot be read now is an error: the identity
    /// may already be there, and making another here would give this account two.
    static func encryptedFolder(_ context: Context, _ store: NoteStore) throws -> DirectoryCloudFolder? {
        guard let path = try SyncSetup.folderPath(context, store) else { return nil }
        let (location, unlocked) = try SyncSetup.follow(
            CloudLocation.resolve(path, environment: context.environment, s3: context.config.s3), context, store,
            notify: { Output.warn($0) })
        let info: ContainerInfo
        do {
            info = try location.folder().readContainer(boundTo: try store.boundCloudFolder())
        } catch let error as CloudError where error.code == .unknownItem {
            return nil  // no container yet: nothing of the account's is there
        } catch let error as CloudError {
            throw CLIError(
                "the cloud folder cannot be read now (\(error.message)); the account's identity may be there: run "
                    + "this again when it can")
        }
        guard info.encrypted else { return nil }
        return try FolderAccess.open(location, context, store, unlocked: unlocked)
    }
}

/// This device's copy of the account's identity: `identity.json` in the data directory, 0600.
enum LocalIdentity {
    static func url(_ store: NoteStore) -> URL { store.directory.appendingPathComponent("identity.json") }

    static func read(_ store: NoteStore) throws -> AccountIdentity? {
        guard let data = FileManager.default.contents(atPath: url(store).path) else { return nil }
        do {
            return try AccountIdentity(json: JSONValue(parsing: data))
        } catch {
            throw CLIError(
                "\(url(store).path) is damaged; it holds this account's private keys: restore it from a backup, or "
                    + "remove it to make a new identity (people you share with would have to accept the new one)")
        }
    }

    static func write(_ identity: AccountIdentity, _ store: NoteStore) throws {
        try PrivateFile.write(identity.json.canonicalBytes + [0x0A], to: url(store))
    }
}
