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
    /// A new container's key is remembered in the data directory before anything is written, so
    /// an init interrupted between `container.json` and its keys file finishes on the next run.
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

    /// A new encrypted container: key, container.json, keys file 1.
    static func create(at location: CloudLocation, _ context: Context, _ store: NoteStore) throws
        -> DirectoryCloudFolder
    {
        let passphrase = try Passphrase.obtain(context, prompt: "New passphrase: ", confirm: true, useCommand: true)
        let dataKey = SymmetricKey(size: .bits256)
        let containerID = UUID().uuidString.lowercased()
        try FolderAccess.remember(dataKey, containerID: containerID, store)
        let seal = FolderSeal(dataKey: dataKey, containerID: containerID)
        let folder = location.folder(seal: seal)
        guard let device = DeviceID(store.deviceID) else {
            throw CLIError("this data directory has no valid device id")
        }
        let hlc = HLC(millis: Date().millisecondsSince1970)
        do {
            _ = try folder.createContainer(device: device, hlc: hlc)
        } catch {
            // No container was made (a folder that is not empty, an unreachable bucket): the key
            // of a container that does not exist must not stay, or later syncs would use it.
            FolderAccess.forget(store)
            throw error
        }
        let keys = try KeysFile.wrap(dataKey, passphrase: passphrase, generation: 1, containerID: containerID)
        try folder.publishKeys(keys, device: device, hlc: hlc)
        return folder
    }

    /// Writes the next keys file for `seal`'s data key under a passphrase asked for.
    static func publishKeys(
        _ folder: DirectoryCloudFolder, dataKey: SymmetricKey?, seal: FolderSeal, _ context: Context,
        _ store: NoteStore,
        variable: String = "CLOUDNOTES_PASSPHRASE"
    ) throws {
        let key = try dataKey ?? rememberedKey(store)
        let passphrase = try Passphrase.obtain(
            context, prompt: "New passphrase: ", variable: variable, confirm: true, useCommand: false)
        let generation = (try folder.keysFiles().files.map(\.generation).max() ?? 0) + 1
        guard let device = DeviceID(store.deviceID) else {
            throw CLIError("this data directory has no valid device id")
        }
        let keys = try KeysFile.wrap(key, passphrase: passphrase, generation: generation, containerID: seal.containerID)
        try folder.publishKeys(keys, device: device, hlc: HLC(millis: Date().millisecondsSince1970))
    }

    static func rememberedKey(_ store: NoteStore) throws -> SymmetricKey {
        guard let remembered = try FolderAccess.rememberedKey(store) else {
            throw CLIError("no key for the encrypted cloud folder in this data directory")
        }
        return remembered.key
    }
}

/// `cloudnotes sync passphrase`: a new keys file wrapping the same data key under a new passphrase.
struct SyncPassphrase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passphrase",
        abstract:
            "Change the passphrase of the encrypted cloud folder (the current one from $CLOUDNOTES_PASSPHRASE or asked, "
            + "the new one from $CLOUDNOTES_NEW_PASSPHRASE or asked twice). Nothing is re-encrypted; other devices keep working."
    )

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        guard let path = try SyncSetup.folderPath(context, store) else {
            throw CLIError("no cloud folder is configured for this data directory")
        }
        let location = try CloudLocation.resolve(path, environment: context.environment, s3: context.config.s3)
        let root = location.name
        let plain = location.folder()
        let info: ContainerInfo
        do {
            info = try plain.readContainer(boundTo: try store.boundCloudFolder())
        } catch let error as CloudError {
            throw CLIError(error.message)
        }
        guard info.encrypted else { throw CLIError("the cloud folder \(root) is not encrypted") }
        let seal: FolderSeal
        let dataKey: SymmetricKey
        if let remembered = try FolderAccess.rememberedKey(store), remembered.containerID == info.containerID {
            dataKey = remembered.key
            seal = FolderSeal(dataKey: remembered.key, containerID: remembered.containerID)
        } else {
            let passphrase = try Passphrase.obtain(context, prompt: "Current passphrase: ")
            do {
                dataKey = try plain.unlock(passphrase: passphrase, containerID: info.containerID)
            } catch let error as CloudError {
                throw CLIError(error.message)
            }
            seal = FolderSeal(dataKey: dataKey, containerID: info.containerID)
        }
        let folder = location.folder(seal: seal)
        do {
            try EncryptedSetup.publishKeys(
                folder, dataKey: dataKey, seal: seal, context, store, variable: "CLOUDNOTES_NEW_PASSPHRASE")
        } catch let error as CloudError {
            throw CLIError(error.message)
        }
        Output.line(
            "passphrase changed: keys file \((try folder.keysFiles().files.map(\.generation).max()) ?? 0) written")
    }
}
