import Foundation
import GRDB
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStore

@Suite struct NoteStoreFileTests {
    func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }

    @Test func theDataDirectoryIs0700AndTheDatabaseFiles0600WhileOpen() throws {
        let t = try TestStore()
        try t.store.create(title: "a", body: "b")
        let db = t.store.databaseURL.path
        #expect(mode(t.directory.path) == 0o700)
        for path in [db, db + "-wal", db + "-shm"] {
            #expect(FileManager.default.fileExists(atPath: path), "\(path)")
            #expect(mode(path) == 0o600, "\(path)")
        }
    }

    @Test func anExistingOpenDirectoryIsTightenedButNotMadeWritable() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-perm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        #expect(chmod(dir.path, 0o755) == 0)
        let store = try NoteStore(directory: dir)
        #expect(mode(dir.path) == 0o700)
        #expect(mode(store.databaseURL.path) == 0o600)
    }

    @Test func aFileWhereTheDataDirectoryShouldBeIsAnIOError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("x".utf8).write(to: file)
        let error = #expect(throws: StoreError.self) { try NoteStore(directory: file) }
        #expect(error?.code == .io && error?.message.contains(file.path) == true)
        let below = #expect(throws: StoreError.self) { try NoteStore(directory: file.appendingPathComponent("sub")) }
        #expect(below?.code == .readOnly && below?.message.contains("cannot create the data directory") == true)
    }

    @Test func aCorruptDatabaseIsReportedAndLeftUntouched() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cloudnotes-corrupt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var rng = SeededRandom(seed: 7)
        let garbage = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &rng) })
        let file = dir.appendingPathComponent(NoteStore.databaseFileName)
        try garbage.write(to: file)
        let error = #expect(throws: StoreError.self) { try NoteStore(directory: dir) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains(file.path) == true)
        #expect(try Data(contentsOf: file) == garbage)
    }

    @Test func aDatabaseWithAValidHeaderButDamagedPagesIsCorruptToo() throws {
        let t = try TestStore()
        for i in 0..<50 { try t.store.create(title: "note \(i)", body: String(repeating: "text ", count: 200)) }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cloudnotes-damaged-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        // A consistent copy (VACUUM INTO), then its schema page overwritten after the header.
        try t.store.pool.writeWithoutTransaction { db in
            try db.execute(
                sql: "VACUUM INTO ?", arguments: [copy.appendingPathComponent(NoteStore.databaseFileName).path])
        }
        let file = copy.appendingPathComponent(NoteStore.databaseFileName)
        var bytes = try Data(contentsOf: file)
        for i in 100..<4096 { bytes[i] = 0xA5 }
        try bytes.write(to: file)
        let error = #expect(throws: StoreError.self) { try NoteStore(directory: copy) }
        #expect(error?.code == .corrupt)
        #expect(try Data(contentsOf: file) == bytes)
    }

    @Test func sqliteErrorsMapToCodesAUserCanActOn() {
        func code(_ result: ResultCode) -> StoreError.Code {
            NoteStore.storeError(DatabaseError(resultCode: result, message: "m"), path: "/p/notes.sqlite").code
        }
        #expect(code(.SQLITE_NOTADB) == .corrupt && code(.SQLITE_CORRUPT) == .corrupt)
        #expect(code(.SQLITE_BUSY) == .locked && code(.SQLITE_LOCKED) == .locked)
        #expect(
            code(.SQLITE_READONLY) == .readOnly && code(.SQLITE_CANTOPEN) == .readOnly
                && code(.SQLITE_PERM) == .readOnly)
        #expect(code(.SQLITE_FULL) == .io && code(.SQLITE_IOERR) == .io)
        // Extended codes map like their primary code.
        #expect(code(.SQLITE_READONLY_DBMOVED) == .readOnly && code(.SQLITE_IOERR_WRITE) == .io)
        let message = NoteStore.storeError(
            DatabaseError(resultCode: .SQLITE_READONLY, message: "attempt to write a readonly database"),
            path: "/p/notes.sqlite"
        ).message
        #expect(message == "cannot write the database /p/notes.sqlite: attempt to write a readonly database")
    }

    /// Tests usually run as root, for whom chmod does not block writes; the mapping above covers
    /// the error then. As an ordinary user this opens a store in a read-only directory.
    @Test(.enabled(if: geteuid() != 0)) func aReadOnlyDataDirectoryGivesAClearError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-ro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer {
            _ = chmod(dir.path, 0o700)
            try? FileManager.default.removeItem(at: dir)
        }
        #expect(chmod(dir.path, 0o500) == 0)
        let error = #expect(throws: StoreError.self) { try NoteStore(directory: dir) }
        #expect(error?.code == .readOnly)
        #expect(mode(dir.path) == 0o500, "the store must not make the directory writable")
    }
}
