import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

/// A store opened `.read` (the CLI's reading commands): one read-only connection that sees what
/// writers commit, refuses writes, and gives way to the writable open when the store is not
/// ready to be read as it is.
@Suite struct NoteStoreReadAccessTests {
    @Test func aStoreOpenedForReadingReadsWhatAWriterCommitsAndRefusesWrites() throws {
        let t = try TestStore()
        let first = try t.store.create(title: "Written before", body: "one")
        let reader = try NoteStore(directory: t.directory, access: .read)
        #expect(reader.isOpenForReading)
        #expect(reader.deviceID == t.store.deviceID)
        #expect(try reader.note(first.id)?.body == "one")
        let second = try t.store.create(title: "Written after it opened", body: "two")
        #expect(try reader.note(second.id)?.title == "Written after it opened")
        #expect(try reader.search("after").hits.map(\.note.id) == [second.id])
        let error = #expect(throws: StoreError.self) { try reader.create(title: "Not written", body: "") }
        #expect(error?.code == .readOnly)
        #expect(try t.store.count(.all) == 2)
    }

    @Test func aNewDataDirectoryIsCreatedByTheWritableOpen() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cloudnotes-read-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try NoteStore(directory: directory, access: .read)
        #expect(!store.isOpenForReading)
        #expect(!store.deviceID.isEmpty)
        #expect(try store.count(.all) == 0)
        #expect(try NoteStore(directory: directory, access: .read).isOpenForReading)
    }

    @Test func indexesAnInterruptedImportDeferredAreBuiltBeforeReading() throws {
        let t = try TestStore()
        try t.store.create(title: "Indexed", body: "text")
        try t.store.pool.write { try DeferredIndexes.drop($0) }
        let store = try NoteStore(directory: t.directory, access: .read)
        #expect(!store.isOpenForReading)
        #expect(try store.read(DeferredIndexes.pending) == nil)
        #expect(try NoteStore(directory: t.directory, access: .read).isOpenForReading)
    }

    @Test func aDatabaseOfANewerBuildOpensForReadingWithItsReason() throws {
        let t = try TestStore()
        try t.store.create(title: "Kept", body: "")
        try t.store.pool.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('reminders-1')")
        }
        let store = try NoteStore(directory: t.directory, access: .read)
        #expect(store.isOpenForReading)
        #expect(store.readOnlyReason?.contains("'reminders-1'") == true)
        #expect(try store.allNotes(includeTrash: false).map(\.title) == ["Kept"])
    }
}
