import ArgumentParser
import CloudFolder
import Crypto
import Foundation
import NotesCore
import NotesStore
import NotesSync

/// `cloudnotes sync encrypt`: the plain cloud folder encrypted in place (SYNC-FORMAT
/// "Encrypting in place"): an encrypted container in its `sealed/` folder, `encrypted.json` at
/// its root, this data directory moved there; the other devices follow on their next sync.
struct SyncEncrypt: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract:
            "Encrypt the plain cloud folder in place (new passphrase from $CLOUDNOTES_PASSPHRASE or asked twice); "
            + "other devices move on their next sync with the passphrase, and the plain files go once every active device has moved."
    )

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        // Bound is enough: a run cut short after moving this data directory to the encrypted
        // container leaves it bound there before its first sync learns the container's id, and
        // this run then says the folder is encrypted already (`sync` finishes the move).
        guard let bound = try store.boundCloudFolder() else {
            throw CLIError("this data directory is not bound to a cloud folder; run 'cloudnotes sync init PATH' first")
        }
        // A container moved elsewhere is encrypted where it is now, never at a place it left
        // (which would make a second container: the life-cycle model's split).
        let (location, _) = try SyncSetup.followMove(
            CloudLocation.resolve(bound, environment: context.environment, s3: context.config.s3), context, store,
            notify: { Output.warn($0) })
        let plain = location.folder()
        let info: ContainerInfo
        do {
            info = try plain.readContainer(boundTo: location.name)
        } catch let error as CloudError {
            throw CLIError(error.message)
        }
        guard !info.encrypted else { throw CLIError("the cloud folder \(location.name) is already encrypted") }
        let sealed = try EncryptInPlace.sealedLocation(of: location, context)
        let seal: FolderSeal
        do {
            if plain.encryptedPointerState() == .refused {
                throw CLIError(
                    "\(location.name)/\(DirectoryCloudFolder.encryptedFileName) is not a pointer of ours (damaged or "
                        + "planted); nothing was written: look at it, remove it, and run this again")
            }
            if plain.encryptedContainerID() != nil {
                // Done already (here and cut short after the announcement, or by another device):
                // this one follows. The passphrase was given as a new one: say whose is asked for.
                do {
                    seal = try EncryptInPlace.unlock(sealed, of: plain, context, store)
                } catch let error as CLIError where error.message.hasPrefix("wrong passphrase") {
                    throw CLIError(
                        "the cloud folder \(location.name) was encrypted already (by another device) under another "
                            + "passphrase; nothing was written: run `cloudnotes sync` with that passphrase to move there"
                    )
                }
            } else {
                seal = try EncryptInPlace.create(sealed, context, store)
                try plain.writeEncryptedPointer(containerID: seal.containerID, device: try EncryptInPlace.device(store))
            }
            let queued = try EncryptInPlace.move(store, from: plain, to: sealed)
            Output.line(
                "encrypting the cloud folder \(location.name) in place: this data directory syncs with the encrypted "
                    + "container in \(sealed.name) now (\(queued) revision(s) to publish again)")
        } catch let error as CloudError {
            throw CLIError(error.userMessage)
        }
        guard let (engine, _) = try SyncSetup.engine(context, store, unlocked: seal) else { return }
        let summary = Blocking.value { await engine.syncNow() }
        if let error = summary.error { throw CLIError(error.userMessage) }
        Output.line(
            "other devices move on their next sync (with the passphrase); the plain files are removed once every "
                + "active device has moved")
    }
}

/// The steps of encrypting in place that `sync encrypt` and a following device share.
enum EncryptInPlace {
    static func sealedLocation(of root: CloudLocation, _ context: Context) throws -> CloudLocation {
        try CloudLocation.resolve(
            root.name + "/" + DirectoryCloudFolder.sealedFolderName, environment: context.environment,
            s3: context.config.s3)
    }

    /// The id this device publishes under (after a clone rotation, the rotated one).
    static func device(_ store: NoteStore) throws -> DeviceID {
        let state = try store.engineState().map(SyncEngineState.init(serialized:))
        guard let device = state?.deviceID ?? DeviceID(store.deviceID) else {
            throw CLIError("this data directory has no valid device id")
        }
        return device
    }

    /// A new encrypted container in `sealed`, or the one an earlier run cut short (or another
    /// device running at the same time) started there, completed: keys file 1 first, then
    /// `container.json` (`establishEncryptedContainer`); the caller announces it in
    /// `encrypted.json` only after both. Nothing is announced yet, so a `container.json` there
    /// without keys (a build before 0.16 cut short) is nobody's and is replaced.
    static func create(_ sealed: CloudLocation, _ context: Context, _ store: NoteStore) throws -> FolderSeal {
        if !sealed.isRemote, !FileManager.default.fileExists(atPath: sealed.name) {
            try FileManager.default.createDirectory(
                atPath: sealed.name, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        guard let seal = try EncryptedSetup.create(at: sealed, context, store, replacingOrphan: true).seal else {
            throw CLIError("the encrypted container was not created")
        }
        return seal
    }

    /// The key of the encrypted container `encrypted.json` names: remembered, else from the
    /// passphrase. A wrong passphrase throws before anything is written anywhere.
    static func unlock(_ sealed: CloudLocation, of root: DirectoryCloudFolder, _ context: Context, _ store: NoteStore)
        throws -> FolderSeal
    {
        guard let id = root.encryptedContainerID() else { throw CLIError("the cloud folder is not being encrypted") }
        if let remembered = try FolderAccess.remembered(store, context), remembered.containerID == id {
            return remembered
        }
        let view = sealed.folder()
        let info: ContainerInfo
        do {
            info = try view.readContainer(boundTo: nil)
        } catch let error as CloudError {
            throw CLIError("the encrypted container in \(sealed.name) cannot be read yet: \(error.message)")
        }
        guard info.encrypted, info.containerID == id else {
            throw CLIError(
                "\(sealed.name) does not hold the encrypted container encrypted.json names; nothing was written")
        }
        return try FolderAccess.unlock(view, info, context, store)
    }

    /// Queues everything again, binds the data directory to the encrypted container, and marks
    /// this device moved at the root. Returns how many revisions were queued.
    static func move(_ store: NoteStore, from root: DirectoryCloudFolder, to sealed: CloudLocation) throws -> Int {
        let device = try device(store)
        let queued = try SyncEngine.rebindToEncrypted(store: store, path: sealed.name)
        try root.markMovedToSealed(device: device, hlc: HLC(millis: Date().millisecondsSince1970))
        return queued
    }

    /// A data directory bound to the plain root of a container being encrypted moves to the
    /// encrypted one (asking for the passphrase as an encrypted folder does): the location and
    /// key to sync with then, or nil when the folder is not being encrypted.
    static func follow(_ location: CloudLocation, _ context: Context, _ store: NoteStore) throws -> (
        CloudLocation, FolderSeal
    )? {
        let root = location.folder()
        guard try store.boundCloudFolder() == location.name else { return nil }
        if root.encryptedPointerState() == .refused {
            Output.warn(
                "\(location.name)/\(DirectoryCloudFolder.encryptedFileName) is not a pointer of ours (damaged or "
                    + "planted) and is ignored: this device keeps syncing the plain files")
        }
        guard root.encryptedContainerID() != nil else { return nil }
        let sealed = try sealedLocation(of: location, context)
        let remembered = try FolderAccess.remembered(store, context)
        if remembered?.containerID != root.encryptedContainerID(), context.environment["CLOUDNOTES_PASSPHRASE"] == nil,
            context.config.passphraseCommand == nil, isatty(STDIN_FILENO) == 0
        {
            // Nothing to ask with: the plain files still work until every active device moved.
            Output.warn(
                "the cloud folder \(location.name) is being encrypted; this device keeps syncing its plain files until "
                    + "it is given the passphrase ($CLOUDNOTES_PASSPHRASE, passphraseCommand, or a terminal)")
            return nil
        }
        let seal = try unlock(sealed, of: root, context, store)
        let queued = try move(store, from: root, to: sealed)
        Output.info(
            "the cloud folder \(location.name) is encrypted now (its encrypted.json says so); this data directory "
                + "syncs with the encrypted container in \(sealed.name) (\(queued) revision(s) to publish again)")
        return (sealed, seal)
    }

    /// Bound to the encrypted container in a root's `sealed/`: marks this device moved (again,
    /// in case a kill came between), and once every active device of the plain container has
    /// moved removes the plain files. A failure is a warning: it is tried on the next start.
    static func finish(_ location: CloudLocation, _ context: Context, _ store: NoteStore, inactiveAfter: TimeInterval) {
        let suffix = "/" + DirectoryCloudFolder.sealedFolderName
        guard location.name.hasSuffix(suffix) else { return }
        do {
            let rootLocation = try CloudLocation.resolve(
                String(location.name.dropLast(suffix.count)), environment: context.environment, s3: context.config.s3)
            let root = rootLocation.folder()
            guard let containerID = root.encryptedContainerID() else { return }
            let device = try device(store)
            let now = Date().millisecondsSince1970
            try root.markMovedToSealed(device: device, hlc: HLC(millis: now))
            switch try root.plainContainerState() {
            case .replaced:
                // Folders (named after notebooks) a build before 0.16 left behind.
                try root.removePlainFiles()
                return
            case .removed: break  // a removal a kill cut short: finish it
            case .present:
                let waiting = try root.devicesNotMovedToSealed(now: now, inactiveAfter: Int64(inactiveAfter * 1000))
                guard waiting.isEmpty else { return }
            }
            let removed = try root.removePlainContainer()
            try root.writeEncryptedInPlaceContainer(containerID: containerID, device: device, hlc: HLC(millis: now))
            Output.info(
                "every active device syncs with the encrypted container: the plain cloud folder's \(removed) file(s) "
                    + "were removed from \(rootLocation.name)")
        } catch {
            Output.warn("the plain files of the encrypted cloud folder stay for now: \(CloudError.userMessage(error))")
        }
    }
}
