import Foundation
import NotesFiles
import NotesStore
import NotesSync

/// A store and an empty notes folder under a new temporary directory: what the mirror's suites
/// start from. Its mirrors and keepers merge as sync does; `remove()` takes the directory away.
struct MirrorFixture {
    let home: URL
    /// The notes folder, absolute.
    let folder: String
    /// The data directory.
    let data: URL
    let store: NoteStore

    init(_ name: String) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-\(name)-\(UUID().uuidString)")
        folder = home.appendingPathComponent("notes").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        data = home.appendingPathComponent("data")
        store = try NoteStore(directory: data)
    }

    /// A mirror of the store into the folder, on the wall clock unless `nowNs` is given.
    func mirror(nowNs: @escaping () -> Int64 = Self.wallClockNs) throws -> FolderMirror {
        try Self.mirror(store, folder, data.path, nowNs)
    }

    /// A keeper of the folder whose sweep comes only when asked for (an hour by default), told
    /// of the folder's changes by inotify unless `watchEvents` is false (it then polls).
    func keeper(
        sweep: Duration = .seconds(3600), watchEvents: Bool = true,
        nowNs: @escaping @Sendable () -> Int64 = Self.wallClockNs
    ) throws -> MirrorKeeper {
        let (store, folder, data) = (store, folder, data.path)
        return try MirrorKeeper(store: store, dataDirectory: data, sweep: sweep, watchEvents: watchEvents) {
            try Self.mirror(store, folder, data, nowNs)
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: home)  // a temporary directory: nothing to report
    }

    static let wallClockNs: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000_000) }

    private static func mirror(
        _ store: NoteStore, _ folder: String, _ data: String, _ nowNs: @escaping () -> Int64
    ) throws -> FolderMirror {
        try FolderMirror(
            store: store, folder: folder, dataDirectory: data, resolve: ConflictResolver(strategy: .merge).resolve,
            nowNs: nowNs)
    }
}
