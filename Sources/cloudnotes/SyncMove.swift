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
        guard state?.containerID != nil, let current = try store.boundCloudFolder() else {
            throw CLIError("this data directory is not bound to a cloud folder; run 'cloudnotes sync init PATH' first")
        }
        let source = try CloudLocation.resolve(current, environment: context.environment, s3: context.config.s3)
        let target = try CloudLocation.resolve(path, environment: context.environment, s3: context.config.s3)
        guard source.name != target.name else { throw CLIError("the cloud folder is already at \(target.name)") }
        if !target.isRemote {
            try SyncSetup.checkOutside(store, cloudFolder: target.name)
            if !FileManager.default.fileExists(atPath: target.name) {
                try FileManager.default.createDirectory(
                    atPath: target.name, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        }
        guard let device = DeviceID(store.deviceID) else { throw CLIError("this data directory has no device id") }
        let count: Int
        do {
            let from = source.folder()
            let to = target.folder()
            // A move run again after an interruption finds its own container.json; any other
            // container is refused.
            if let held = try? to.io.read(to.layout.containerFile, maxBytes: 1 << 20),
                held != (try? from.io.read(from.layout.containerFile, maxBytes: 1 << 20))
            {
                throw CLIError("\(target.name) already holds another cloud folder; nothing was copied")
            }
            count = try from.copyAll(to: to, device: device)
            // Bound to the copy before the pointer is written: a move cut here leaves this device
            // at the new place and the others at the old one, both whole.
            try store.bindCloudFolder(target.name)
            try from.writeMoved(to: target.name, device: device)
        } catch let error as CloudError {
            throw CLIError(error.userMessage)
        }
        Output.line(
            "moved the cloud folder from \(source.name) to \(target.name) (\(count) files copied); this data directory is bound there"
        )
        Output.line(
            "the old place keeps its files and a moved.json; other devices follow it on their next sync")
    }
}
