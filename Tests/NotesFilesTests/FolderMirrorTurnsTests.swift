import Foundation
import NotesCore
import NotesFiles
import NotesStore
import NotesSync
import Testing

/// Two mirrors of one data directory (`files --watch` and a `files sync` beside it) take turns
/// and each starts from the other's records: the other's writes are not edits to it.
@Suite struct FolderMirrorTurnsTests {
    @Test func aSecondMirrorStartsFromTheFirstOnesRecords() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cloudnotes-turns-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("notes").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let data = home.appendingPathComponent("data")
        let store = try NoteStore(directory: data)
        func mirror() throws -> FolderMirror {
            try FolderMirror(
                store: store, folder: folder, dataDirectory: data.path,
                resolve: ConflictResolver(strategy: .merge).resolve)
        }
        let (watching, other) = (try mirror(), try mirror())
        try store.create(title: "One", body: "first")
        #expect(try watching.sync().toFolder == ["wrote notes/One.md"])
        let second = try other.sync()
        #expect(second.isEmpty, "\(second.fromFolder) \(second.toFolder)")
        try store.create(title: "Two", body: "second")
        #expect(try other.sync().toFolder == ["wrote notes/Two.md"])
        #expect(try watching.sync().isEmpty)
    }
}
