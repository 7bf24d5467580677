import Foundation
import GRDB
import NotesCore

extension NoteStore {
    /// Every note (and the trash with `includeTrash`) in one read, by notebook, creation and id:
    /// an export reads 100k notes in one statement instead of a query per note.
    public func allNotes(includeTrash: Bool) throws -> [Note] {
        var notes: [Note] = []
        try forEachNote(includeTrash: includeTrash) { notes.append($0) }
        return notes
    }

    /// Every note, as `allNotes` orders them, handed to `body` one at a time as the statement
    /// reads them, in one read transaction (a consistent snapshot), so a JSON export holds one
    /// note at a time. `body` must not read the database (reads are not reentrant); files are fine.
    public func forEachNote(includeTrash: Bool, _ body: (Note) throws -> Void) throws {
        try read { db in
            let filter = includeTrash ? "" : " WHERE deletedAt IS NULL"
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT * FROM note" + filter + " ORDER BY zone, createdAt, id")
            // Attachments in one query too (a note row does not carry them).
            var attachments: [String: [Attachment]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT noteID, name, size, sha256 FROM attachment") {
                attachments[row["noteID"], default: []].append(
                    Attachment(name: row["name"], size: row["size"], sha256: row["sha256"]))
            }
            while let row = try cursor.next() {
                var note = try Self.note(from: row)
                if let found = attachments[note.idString] { note.attachments = Attachment.sorted(found) }
                try body(note)
            }
        }
    }

    /// The notebooks (zone ids) that hold notes (or trashed notes with `includeTrash`).
    public func noteZones(includeTrash: Bool) throws -> [String] {
        try read { db in
            try String.fetchAll(
                db, sql: "SELECT DISTINCT zone FROM note" + (includeTrash ? "" : " WHERE deletedAt IS NULL"))
        }
    }
}
