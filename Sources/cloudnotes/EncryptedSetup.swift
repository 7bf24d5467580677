import ArgumentParser
import CloudFolder
import Crypto
import Foundation
import NotesCore
import NotesStore
import NotesSync

/// `sync init --encrypt` and joining an encrypted folder (SYNC-FORMAT rule 14).
enum EncryptedSetup {
    /// The folder `sync init` joins: a new encrypted container when `encrypt` and the folder has
    /// none; the existing container, unlocked, when it is encrypted; else the plain folder.
    ///
    /// A new container's keys file 1 is written before its `container.json` (`create`), so an
    /// init cut short between the two is completed by the next run with the passphrase. (A build
    /// before 0.16 wrote them the other way round, remembering the key first: such a container
    /// without keys file is finished with the remembered key.)
    static func folder(at location: CloudLocation, encrypt: Bool, _ context: Context, _ store: NoteStore) throws
        -> DirectoryCloudFolder
    {
        let root = location.name
        let plain = location.folder()
        let existing: ContainerInfo?
        do {
            existing = try plain.readContainer(boundTo: nil)
        } catch let error as CloudError where error.code == .unknownItem {
            existing = nil
        }
        guard let existing else {
            guard encrypt else { return plain }
            return try create(at: location, context, store)
        }
        guard existing.encrypted else {
            if encrypt {
                throw CLIError(
                    "\(root) already holds a plain (unencrypted) cloud folder; create the encrypted one in an empty folder"
                )
            }
            return plain
        }
        // An init of ours interrupted before its keys file: finish it with the remembered key.
        if let seal = try FolderAccess.remembered(store), seal.containerID == existing.containerID,
            try plain.keysFiles().files.isEmpty
        {
            let folder = location.folder(seal: seal)
            try publishKeys(folder, dataKey: nil, seal: seal, context, store)
            return folder
        }
        return location.folder(seal: try FolderAccess.unlock(plain, existing, context, store))
    }

    /// A new encrypted container: keys file 1 (naming its container), then container.json
    /// (`establishEncryptedContainer`). A run cut short between the two is completed by the
    /// next one with the passphrase; nothing is kept in the data directory meanwhile. The key
    /// is remembered only when the config says so.
    static func create(
        at location: CloudLocation, _ context: Context, _ store: NoteStore, replacingOrphan: Bool = false
    )
        throws -> DirectoryCloudFolder
    {
        let passphrase = try Passphrase.obtain(context, prompt: "New passphrase: ", confirm: true, useCommand: true)
        guard let device = DeviceID(store.deviceID) else {
            throw CLIError("this data directory has no valid device id")
        }
        let (dataKey, seal, _) = try location.folder().establishEncryptedContainer(
            passphrase: passphrase, device: device, hlc: HLC(millis: Date().millisecondsSince1970),
            replacingOrphan: replacingOrphan)
        if context.config.rememberKey { try FolderAccess.remember(dataKey, containerID: seal.containerID, store) }
        return location.folder(seal: seal)
    }

    /// Writes the next keys file for `seal`'s data keys under a passphrase asked for.
    static func publishKeys(
        _ folder: DirectoryCloudFolder, dataKey: SymmetricKey?, seal: FolderSeal, _ context: Context,
        _ store: NoteStore,
        variable: String = "CLOUDNOTES_PASSPHRASE"
    ) throws {
        let key = try dataKey.map(Keyring.init) ?? rememberedKeyring(store)
        let passphrase = try Passphrase.obtain(
            context, prompt: "New passphrase: ", variable: variable, confirm: true, useCommand: false)
        let generation = (try folder.keysFiles().files.map(\.generation).max() ?? 0) + 1
        guard let device = DeviceID(store.deviceID) else {
            throw CLIError("this data directory has no valid device id")
        }
        let keys = try KeysFile.wrap(key, passphrase: passphrase, generation: generation, containerID: seal.containerID)
        try folder.publishKeys(keys, device: device, hlc: HLC(millis: Date().millisecondsSince1970))
    }

    static func rememberedKeyring(_ store: NoteStore) throws -> Keyring {
        guard let remembered = try FolderAccess.rememberedKey(store) else {
            throw CLIError("no key for the encrypted cloud folder in this data directory")
        }
        return remembered.keyring
    }
}

/// `cloudnotes sync passphrase`: a new keys file wrapping the same data keys under a new
/// passphrase (with `--new-key`, and a new data key for what is written from then on); the older
/// ones are removed, so the old passphrase opens nothing left in the folder.
struct SyncPassphrase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passphrase",
        abstract:
            "Change the passphrase of the encrypted cloud folder (the current one from $CLOUDNOTES_PASSPHRASE or asked, "
            + "the new one from $CLOUDNOTES_NEW_PASSPHRASE or asked twice). Nothing is re-encrypted; devices that hold "
            + "the key keep working; the old passphrase opens nothing in the folder any more.",
        discussion:
            "With --new-key a new data key also seals everything written from then on, so whoever kept the old key "
            + "(a lost device's data directory, an old keys file and its passphrase) cannot read what follows. Every "
            + "other device is asked the new passphrase at its next sync and writes nothing with the old key meanwhile."
    )

    @OptionGroup var global: GlobalOptions

    @Flag(
        name: .customLong("new-key"),
        help: "Also start a new data key for everything written from now on (the old key still opens what it sealed).")
    var newKey = false

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        guard let path = try SyncSetup.folderPath(context, store) else {
            throw CLIError("no cloud folder is configured for this data directory")
        }
        // The passphrase of the container where it is now: a keys file written at a place it
        // left would be read by nobody.
        let (location, _) = try SyncSetup.follow(
            CloudLocation.resolve(path, environment: context.environment, s3: context.config.s3), context, store,
            notify: { Output.warn($0) })
        let root = location.name
        let plain = location.folder()
        let info: ContainerInfo
        do {
            info = try plain.readContainer(boundTo: try store.boundCloudFolder())
        } catch let error as CloudError {
            throw CLIError(error.message)
        }
        guard info.encrypted else { throw CLIError("the cloud folder \(root) is not encrypted") }
        let keyring = try currentKeyring(location, info, context, store)
        let folder = location.folder(seal: FolderSeal(keyring: keyring, containerID: info.containerID))
        var written = keyring
        if newKey {
            guard let more = keyring.addingRandomKey() else {
                throw CLIError("the cloud folder has had \(Keyring.maximumCount) keys already; no new key was started")
            }
            written = more
        }
        let passphrase = try Passphrase.obtain(
            context, prompt: "New passphrase: ", variable: "CLOUDNOTES_NEW_PASSPHRASE", confirm: true,
            useCommand: false)
        guard let device = DeviceID(store.deviceID) else {
            throw CLIError("this data directory has no valid device id")
        }
        let rekeyed: DirectoryCloudFolder.Rekeyed
        do {
            rekeyed = try folder.rekey(
                written, passphrase: passphrase, device: device, hlc: HLC(millis: Date().millisecondsSince1970))
        } catch let error as CloudError {
            throw CLIError(error.message)
        }
        // A new key seals this device's next writes only once its keys file stands.
        if context.config.rememberKey { try FolderAccess.remember(written, containerID: info.containerID, store) }
        if !rekeyed.damaged.isEmpty {
            Output.warn(
                "\(rekeyed.damaged.joined(separator: ", ")) did not check out (damaged, or not written by cloudnotes): "
                    + "skipped and removed")
        }
        let what =
            "keys file \(rekeyed.generation) written, \(rekeyed.removed) older one(s) removed; the old passphrase opens "
            + "nothing in the folder any more"
        if newKey {
            Output.line(
                "passphrase changed and key \(written.keys.count) started: \(what); what is written from now on is sealed "
                    + "with the new key, which the other devices take up with the new passphrase at their next sync "
                    + "(they write nothing with the old one meanwhile); whoever kept the old key can still read what was "
                    + "written before, nothing after")
        } else {
            Output.line(
                "passphrase changed: \(what) (a copy of an old keys file kept elsewhere still opens what was written "
                    + "before with it)")
        }
    }

    /// The folder's data keys: remembered (checked against the folder, and only when no newer key
    /// was started on another device), else opened with the current passphrase.
    private func currentKeyring(
        _ location: CloudLocation, _ info: ContainerInfo, _ context: Context, _ store: NoteStore
    ) throws -> Keyring {
        if context.config.rememberKey, let remembered = try FolderAccess.rememberedKey(store),
            remembered.containerID == info.containerID
        {
            let folder = location.folder(seal: FolderSeal(keyring: remembered.keyring, containerID: info.containerID))
            // A damaged remembered key must never be wrapped as the only key in force.
            _ = try FolderAccess.checked(folder, store)
            // A ring without a key another device started would lose what that key sealed.
            if FolderAccess.keyChanged(folder) == nil { return remembered.keyring }
        }
        let passphrase = try Passphrase.obtain(context, prompt: "Current passphrase: ")
        do {
            return try location.folder().unlockKeyring(passphrase: passphrase, containerID: info.containerID)
        } catch let error as CloudError {
            throw CLIError(error.message)
        }
    }
}
