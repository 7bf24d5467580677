import Foundation
import NotesCore
import NotesStore

/// A note as `--json` output and JSON export/import write it.
struct NoteJSON: Codable, Equatable {
    var id: String
    var title: String
    var body: String?
    var snippet: String?
    var tags: [String]
    var isFavorite: Bool
    var notebook: String?
    /// The notebook's display name, in JSON export only, when it is not the zone id (as
    /// Markdown export's `notebookName`): an import into a fresh device names the notebook so.
    var notebookName: String?
    var createdAt: String
    var modifiedAt: String
    var deletedAt: String?
    var syncState: String?
    var headRev: String?
    /// Front matter keys kept from an imported Markdown file (`Note.frontMatter`); absent when none.
    var frontMatter: String?
    /// The note's attachments, in JSON export only (each with its file beside the JSON file);
    /// absent when it has none.
    var attachments: [AttachmentJSON]?

    init(_ note: Note, notebookName: String? = nil) {
        id = note.idString
        title = note.title
        body = note.body
        tags = note.tags
        isFavorite = note.isFavorite
        notebook = note.zone
        self.notebookName = notebookName == note.zone ? nil : notebookName
        createdAt = Format.iso(note.createdAt)
        modifiedAt = Format.iso(note.modifiedAt)
        deletedAt = note.deletedAt.map(Format.iso)
        syncState = note.syncState.rawValue
        headRev = note.headRev
        frontMatter = note.frontMatter
    }

    /// Writes what `JSONEncoder` (pretty, sorted keys) writes for this note, without it (D-238);
    /// false, with nothing written, for a note with attachments (whose encoding it leaves to the
    /// encoder).
    func write(to json: inout PrettyJSONWriter) -> Bool {
        guard attachments == nil else { return false }
        func member(_ key: String, _ value: String?) {
            guard let value else { return }
            json.key(key)
            json.string(value)
        }
        json.openObject()
        member("body", body)
        member("createdAt", createdAt)
        member("deletedAt", deletedAt)
        member("frontMatter", frontMatter)
        member("headRev", headRev)
        member("id", id)
        json.key("isFavorite")
        json.bool(isFavorite)
        member("modifiedAt", modifiedAt)
        member("notebook", notebook)
        member("notebookName", notebookName)
        member("snippet", snippet)
        member("syncState", syncState)
        json.key("tags")
        json.openArray()
        for tag in tags {
            json.element()
            json.string(tag)
        }
        json.closeArray()
        member("title", title)
        json.closeObject()
        return true
    }

    init(_ summary: NoteSummary) {
        id = summary.idString
        title = summary.title
        snippet = summary.snippet
        tags = summary.tags
        isFavorite = summary.isFavorite
        notebook = summary.zone
        createdAt = Format.iso(summary.createdAt)
        modifiedAt = Format.iso(summary.modifiedAt)
        deletedAt = summary.deletedAt.map(Format.iso)
        syncState = summary.syncState.rawValue
    }
}
