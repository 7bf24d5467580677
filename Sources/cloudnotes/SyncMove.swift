import ArgumentParser
import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync

/// `cloudnotes sync move PLACE`: the cloud folder copied to another place, this data directory
/// bound there, `moved.json` left at the old place for the other devices (SYNC-FORMAT "Moving").
struct SyncMove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract:
            "Copy the cloud folder to another place (a folder or s3://BUCKET/PREFIX) and bind this data directory there; other devices follow on their next sync."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The new place: an empty (or new) folder, or s3://BUCKET/PREFIX with nothing under it.")
    var path: String

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        let state = try store.engineState().map(SyncEngineState.init(serialized:))
        guard let bound = try store.boundCloudFolder() else {
            throw CLIError("this data directory is not bound to a cloud folder; run 'cloudnotes sync init PATH' first")
        }
        guard let containerID = state?.containerID else {
            // Bound before its first sync there (a `sync encrypt` cut short between moving this
            // data directory and its first sync): which container is moved is learned by syncing.
            throw CLIError("this data directory has not synced with \(bound) yet; run 'cloudnotes sync' first")
        }
        guard let device = state?.deviceID ?? DeviceID(store.deviceID) else {
            throw CLIError("this data directory has no device id")
        }
        // No sync of this data directory publishes at the old place while it is copied.
        let lock = SyncPassLock(path: store.directory.appendingPathComponent("sync.lock").path)
        guard try lock.acquire(timeout: 30) else { throw CLIError("a sync is already running; try again when it ends") }
        defer { lock.release() }
        // Where the container lives now: a move starts from the end of its forward pointers.
        let (source, seal) = try SyncSetup.followMove(
            CloudLocation.resolve(bound, environment: context.environment, s3: context.config.s3), context, store,
            notify: { Output.warn($0) })
        let target = try CloudLocation.resolve(path, environment: context.environment, s3: context.config.s3)
        guard source.name != target.name else { throw CLIError("the cloud folder is already at \(target.name)") }
        guard !target.name.hasPrefix(source.name + "/"), !source.name.hasPrefix(target.name + "/") else {
            throw CLIError("\(target.name) and \(source.name) lie one inside the other; a move needs a separate place")
        }
        if !target.isRemote { try SyncSetup.checkOutside(store, cloudFolder: target.name) }
        let count: Int
        do {
            let from = try FolderAccess.open(source, context, store, unlocked: seal)
            try Self.checkSource(from, name: source.name, containerID: containerID)
            // A plain root being encrypted in place has devices on its `sealed/` already: a move
            // from the root would leave them behind, two places for one account (issue 21, the
            // life-cycle model's split). This device follows the encryption first.
            if case .valid = from.encryptedPointerState() {
                throw CLIError(
                    "the cloud folder at \(source.name) is being encrypted in place; run 'cloudnotes sync' with its "
                        + "passphrase to follow it to the encrypted container first, then move; nothing was copied")
            }
            let to = target.folder()
            if !target.isRemote, FileManager.default.fileExists(atPath: target.name) {
                // Unreadable counts as not a folder: refused, nothing written.
                guard (try? to.io.isFolder(to.layout.root)) == true else {
                    throw CLIError("\(target.name) is not a folder; nothing was written")
                }
            }
            try to.checkMoveTarget(from: from, name: target.name)
            if !target.isRemote, !FileManager.default.fileExists(atPath: target.name) {
                try FileManager.default.createDirectory(
                    atPath: target.name, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            count = try from.copyAll(to: to, device: device)
            // The pointer before the binding: a move cut between the two leaves every device,
            // this one too, following the pointer at its next sync (SYNC-FORMAT "Moving").
            try from.writeForwardPointer(
                ForwardPointer(place: target.name, containerID: containerID), device: device,
                hlc: HLC(millis: Date().millisecondsSince1970))
            try store.bindCloudFolder(target.name)
        } catch let error as CloudError {
            throw CLIError(error.userMessage)
        }
        Output.line(
            "moved the cloud folder from \(source.name) to \(target.name) (\(count) files copied); this data directory is bound there"
        )
        Output.line(
            "the old place keeps its files and a moved.json; other devices follow it on their next sync")
        if SyncSetup.configMismatch(context, bound: target.name) != nil {
            Output.line(
                "the config still names cloudFolder \(context.config.cloudFolder ?? ""); set it to \(target.name)")
        }
    }

    /// Refuses to move what is not this data directory's container: a place without one (an
    /// emptied folder: nothing to copy) or with another account's (a stray one).
    static func checkSource(_ from: DirectoryCloudFolder, name: String, containerID: String) throws {
        let info: ContainerInfo
        do {
            info = try from.readContainer(boundTo: containerID)
        } catch let error as CloudError {
            var message = "there is no cloud folder to move at \(name) (\(error.message))"
            if let hint = SyncSetup.recoveryHint(error.message, place: name) { message += "; \(hint)" }
            throw CLIError(message)
        }
        guard info.containerID == containerID else {
            throw CLIError(
                "\(name) holds another account (container \(info.containerID)), not this data directory's container "
                    + "\(containerID); nothing was copied")
        }
    }
}
