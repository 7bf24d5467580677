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
            // Attachments in one query too (a note row does not carry them).
            var attachments: [String: [Attachment]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT noteID, name, size, sha256 FROM attachment") {
                attachments[row["noteID"], default: []].append(
                    Attachment(name: row["name"], size: row["size"], sha256: row["sha256"]))
            }
            var notes: [Note] = []
            while let row = try cursor.next() {
                var note = try Self.note(from: row)
                if let found = attachments[note.idString] { note.attachments = Attachment.sorted(found) }
                notes.append(note)
            }
            return notes
        }
    }
}
