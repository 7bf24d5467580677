import Foundation
import GRDB
import NotesCore

/// The links of every note's body (`note_link`, migration links-1) and the aliases of every
/// note (`note_alias`, aliases-1): derived data, written with the note in the same transaction by
/// every write, sync apply and import (`NoteStore.upsert`), so `backlinks` is one indexed lookup
/// (ARCHITECTURE §2, links).
enum LinkIndex {
    /// Replaces the note's links with those of its body, and its aliases with those of its front
    /// matter; `isNew`: it has none yet.
    static func update(_ note: Note, isNew: Bool, _ db: Database) throws {
        try updateAliases(note, isNew: isNew, db)
        if !isNew { try db.run("DELETE FROM note_link WHERE noteID = ?", [note.idString]) }
        guard note.body.utf8Contains(UInt8(ascii: "[")) else { return }
        for (position, link) in LinkParser.links(in: note.body).enumerated() {
            try db.run(
                """
                INSERT INTO note_link(noteID, position, kind, target, targetKey, folderZone, heading, shown)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    note.idString, position, link.kind.rawValue, link.target, TextFolding.fold(link.target),
                    link.folder.map(NotebookSlug.slug(ofFolderPath:)), link.heading, link.shown,
                ])
        }
    }

    /// Replaces the note's aliases (folded; a note without front matter has none).
    static func updateAliases(_ note: Note, isNew: Bool, _ db: Database) throws {
        if !isNew { try db.run("DELETE FROM note_alias WHERE noteID = ?", [note.idString]) }
        guard note.frontMatter != nil else { return }
        for key in Set(MarkdownNote.aliases(of: note).map(TextFolding.fold)) where !key.isEmpty {
            try db.run("INSERT INTO note_alias(noteID, aliasKey) VALUES (?, ?)", [note.idString, key])
        }
    }

    /// Indexes every note's aliases again (a database whose derived data predates `note_alias`).
    static func rebuildAliases(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM note_alias")
        let rows = try Row.fetchCursor(db, sql: "SELECT id, frontMatter FROM note WHERE frontMatter IS NOT NULL")
        while let row = try rows.next() {
            var note = Note(title: "", body: "")
            note.id = UUID(uuidString: row["id"]) ?? note.id
            note.frontMatter = row["frontMatter"]
            try updateAliases(note, isNew: true, db)
        }
    }

    /// Indexes every note again (a database whose derived data is older than the link index).
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM note_link")
        let rows = try Row.fetchCursor(db, sql: "SELECT id, body FROM note WHERE instr(body, '[') > 0")
        while let row = try rows.next() {
            var note = Note(title: "", body: row["body"])
            note.id = UUID(uuidString: row["id"]) ?? note.id
            try update(note, isNew: true, db)
        }
    }
}
