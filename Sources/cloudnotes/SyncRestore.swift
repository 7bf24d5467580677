import CloudFolder
import Crypto
import Foundation
import NotesCore
import NotesStore
import NotesSync

/// `sync init --restore PLACE`: the container this data directory belongs to, re-created with
/// the same id in an emptied (or new) place after its folder was lost (SYNC-FORMAT "Restoring an
/// emptied folder"). Its `container.json` carries a `restored` stamp; every device that synced
/// with the container before (this one included) sees the new stamp and sends everything it
/// holds again, so what only one device had comes back.
enum SyncRestore {
    static func run(at location: CloudLocation, _ context: Context, _ store: NoteStore) throws {
        let state = try store.engineState().map(SyncEngineState.init(serialized:))
        guard let bound = try store.boundCloudFolder() else {
            throw CLIError(
                "--restore re-creates the cloud folder of a data directory that was bound to one; this one never was")
        }
        guard let containerID = state?.containerID else {
            throw CLIError(
                "--restore re-creates the container this data directory synced with; it is bound to \(bound) but "
                    + "never synced there, so there is nothing of it to re-create")
        }
        guard let device = state?.deviceID ?? DeviceID(store.deviceID) else {
            throw CLIError("this data directory has no valid device id")
        }
        let folder = location.folder()
        if bound != location.name {
            let old = try CloudLocation.resolve(bound, environment: context.environment, s3: context.config.s3)
            // An unreadable old place holds no container to point at: the restore goes on.
            if (try? old.folder().readContainer(boundTo: nil).containerID) == containerID {
                throw CLIError(
                    "\(bound) still holds this data directory's cloud folder (container \(containerID)); to put it "
                        + "somewhere else run 'cloudnotes sync move \(location.name)'")
            }
        }
        do {
            let found = try folder.readContainer(boundTo: nil)
            guard found.containerID == containerID else {
                throw CLIError(
                    "\(location.name) holds another account (container \(found.containerID)); nothing was restored")
            }
            // Already restored (a run cut short after container.json): `sync init` goes on.
            try store.bindCloudFolder(location.name)
            return
        } catch let error as CloudError where error.code == .unknownItem {
            // No container: restored below, in an empty place only.
        } catch let error as CloudError {
            throw CLIError(error.message)
        }
        if !location.isRemote {
            try SyncSetup.checkOutside(store, cloudFolder: location.name)
            if !FileManager.default.fileExists(atPath: location.name) {
                try FileManager.default.createDirectory(
                    atPath: location.name, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        }
        guard folder.isEmptied() else {
            throw CLIError(
                "\(location.name) is not empty; a cloud folder is restored only in an empty or new place, nothing was written"
            )
        }
        let hlc = HLC(millis: Date().millisecondsSince1970)
        do {
            // An encrypted container comes back encrypted, with the key this device remembers and
            // a keys file under a passphrase asked now (before anything is written).
            if let remembered = try FolderAccess.rememberedKey(store), remembered.containerID == containerID {
                let passphrase = try Passphrase.obtain(
                    context, prompt: "Passphrase for the restored cloud folder: ", confirm: true)
                let keys = try KeysFile.wrap(
                    remembered.keyring, passphrase: passphrase, generation: 1, containerID: containerID)
                let sealed = location.folder(seal: FolderSeal(keyring: remembered.keyring, containerID: containerID))
                _ = try sealed.createContainer(
                    device: device, hlc: hlc, encrypted: true, id: containerID, restoring: true)
                try sealed.publishKeys(keys, device: device, hlc: hlc)
            } else {
                _ = try folder.createContainer(
                    device: device, hlc: hlc, encrypted: false, id: containerID, restoring: true)
            }
        } catch let error as CloudError {
            throw CLIError(error.userMessage)
        }
        try store.bindCloudFolder(location.name)
        Output.line(
            "re-created container \(containerID) at \(location.name) from this data directory; its notes are sent "
                + "again now, and each other device sends what only it had at its next sync")
    }
}
