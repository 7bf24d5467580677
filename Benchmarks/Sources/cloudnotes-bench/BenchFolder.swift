import CloudFolder
import Foundation
import NotesStore
import NotesSync

/// A fresh directory with a cloud folder in it, plain or encrypted, and devices over it.
struct BenchFolder {
    let directory: String
    let cloud: String
    let seal: FolderSeal?

    /// Empties `directory` and makes `directory/cloud`; `encrypted` gives the folder a new random key.
    init(directory: String, encrypted: Bool) throws {
        self.directory = directory
        cloud = directory + "/cloud"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        seal = encrypted ? FolderSeal.withRandomKey(containerID: UUID().uuidString.lowercased()) : nil
    }

    /// A device named `name`: its store in `directory/name` and an engine over the folder.
    func device(_ name: String) throws -> (NoteStore, SyncEngine) {
        let store = try NoteStore(directory: URL(fileURLWithPath: directory + "/" + name))
        var configuration = SyncEngine.Configuration(
            folder: DirectoryCloudFolder(root: cloud, seal: seal), deviceName: name)
        configuration.logger.logLevel = .critical
        return (store, try SyncEngine(store: store, configuration: configuration))
    }
}
