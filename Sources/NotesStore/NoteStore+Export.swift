import Foundation
import GRDB
import NotesCore

extension NoteStore {
    /// Every note (and the trash with `includeTrash`) in one read, by notebook, creation and id:
    /// an export reads 100k notes in one statement instead of a query per note.
    public func allNotes(includeTrash: Bool) throws -> [Note] {
        try read { db in
            let filter = includeTrash ? "" : " WHERE deletedAt IS NULL"
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT * FROM note" + filter + " ORDER BY zone, createdAt, id")
            var notes: [Note] = []
            while let row = try cursor.next() { notes.append(try Self.note(from: row)) }
            return notes
        }
    }
}
