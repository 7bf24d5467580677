import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

/// A database a newer build made (issue 22 item 13) is read, never written: it opens read-only
/// with a message naming its version, and every write is refused with that message.
@Suite struct NewerBuildDatabaseTests {
    /// A data directory holding one note, then changed by `newerBuild` as a newer build would.
    func databaseOfANewerBuild(_ newerBuild: (Database) throws -> Void) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cloudnotes-newer-\(UUID().uuidString)")
        do {
            let store = try NoteStore(directory: directory)
            try store.create(title: "Written by the newer build", body: "kept")
        }
        let queue = try DatabaseQueue(path: directory.appendingPathComponent(NoteStore.databaseFileName).path)
        try queue.write(newerBuild)
        return directory
    }

    /// The migrations the database lists and its user_version: what a write would change.
    func versionMarks(_ directory: URL) throws -> (Set<String>, Int32) {
        var config = Configuration()
        config.readonly = true
        let queue = try DatabaseQueue(
            path: directory.appendingPathComponent(NoteStore.databaseFileName).path, configuration: config)
        return try queue.read { db in
            (
                try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations"),
                try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            )
        }
    }

    @Test func aMigrationThisBuildDoesNotKnowOpensReadOnlyNamingIt() throws {
        let directory = try databaseOfANewerBuild { db in
            try db.execute(sql: "CREATE TABLE reminder (noteID TEXT NOT NULL, at INTEGER NOT NULL)")
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('reminders-1')")
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try versionMarks(directory)
        let store = try NoteStore(directory: directory)
        let reason = try #require(store.readOnlyReason)
        #expect(reason.contains("newer build") && reason.contains("'reminders-1'"), "\(reason)")
        #expect(try store.allNotes(includeTrash: false).map(\.title) == ["Written by the newer build"])
        let error = #expect(throws: StoreError.self) { try store.create(title: "Not written", body: "") }
        #expect(error?.code == .readOnly && error?.message == reason)
        #expect(try versionMarks(directory) == before)
        #expect(try store.allNotes(includeTrash: false).count == 1)
    }

    @Test func aHigherUserVersionOpensReadOnlyAndIsNotReset() throws {
        let directory = try databaseOfANewerBuild { db in
            try db.execute(sql: "PRAGMA user_version = \(DerivedData.version + 1)")
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try NoteStore(directory: directory)
        let reason = try #require(store.readOnlyReason)
        #expect(reason.contains("user_version) is \(DerivedData.version + 1)"), "\(reason)")
        #expect(throws: StoreError.self) { try store.create(title: "Not written", body: "") }
        #expect(try versionMarks(directory).1 == DerivedData.version + 1)
    }

    @Test func aDatabaseOfThisBuildOpensReadWrite() throws {
        let directory = try databaseOfANewerBuild { _ in }
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try NoteStore(directory: directory)
        #expect(store.readOnlyReason == nil)
        try store.create(title: "Second", body: "")
    }
}
