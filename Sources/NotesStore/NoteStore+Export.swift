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
            let attachments = try Self.allAttachments(db)
            while let row = try cursor.next() {
                var note = try Self.note(from: row)
                if let found = attachments[note.idString] { note.attachments = Attachment.sorted(found) }
                try body(note)
            }
        }
    }

    /// Every note not in the trash as `allNotes` orders them, without its text: the body is
    /// empty and tags and front matter are left out, while the id, notebook, title, dates, head
    /// revision and attachments are there. Enough to name each note's file and to tell whether
    /// it changed since a revision (the notes folder loads only those that did); at 10k notes
    /// this reads a fraction of what `allNotes` does.
    public func allNoteHeads() throws -> [Note] {
        try read { db in try Self.noteHeads(db) }
    }

    /// `allNoteHeads` in `db`; with `among` (a query of note ids), only those notes.
    static func noteHeads(_ db: Database, among ids: String? = nil) throws -> [Note] {
        let attachments = try Self.allAttachments(db, among: ids)
        let filter = ids.map { " AND id IN (\($0))" } ?? ""
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT id, zone, title, createdAt, modifiedAt, headRev FROM note WHERE deletedAt IS NULL" + filter
                + " ORDER BY zone, createdAt, id")
        var notes: [Note] = []
        // Columns by position: a lookup by name per value is most of this read at 10k notes.
        while let row = try rows.next() {
            var note = Note(
                id: try Self.noteID(row), zone: row[1], title: row[2], body: "",
                createdAt: Date(millisecondsSince1970: row[3]), modifiedAt: Date(millisecondsSince1970: row[4]),
                headRev: row[5])
            if let found = attachments[note.idString] { note.attachments = Attachment.sorted(found) }
            notes.append(note)
        }
        return notes
    }

    /// Every attachment (of the notes the query `among` names, when given), by note id: in one
    /// query (a note row does not carry them).
    private static func allAttachments(_ db: Database, among ids: String? = nil) throws -> [String: [Attachment]] {
        var attachments: [String: [Attachment]] = [:]
        let filter = ids.map { " WHERE noteID IN (\($0))" } ?? ""
        for row in try Row.fetchAll(db, sql: "SELECT noteID, name, size, sha256 FROM attachment" + filter) {
            attachments[row["noteID"], default: []].append(
                Attachment(name: row["name"], size: row["size"], sha256: row["sha256"]))
        }
        return attachments
    }

    /// The notebooks (zone ids) that hold notes (or trashed notes with `includeTrash`).
    public func noteZones(includeTrash: Bool) throws -> [String] {
        try read { db in
            try String.fetchAll(
                db, sql: "SELECT DISTINCT zone FROM note" + (includeTrash ? "" : " WHERE deletedAt IS NULL"))
        }
    }
}
