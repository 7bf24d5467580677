import Foundation
import NotesCore

/// The JSON exports of other apps (each recognised by its top-level keys).
enum ImportApps {
    /// jrnl's `jrnl --export json` (jrnl 2.x to 4.x): `{"tags": {…}, "entries": [{"date":
    /// "2024-01-15", "time": "09:30", "title", "body", "tags": ["@work"], "starred"}]}`. Dates
    /// are local times without a zone, read as UTC; tags lose jrnl's `@` (or `#`) mark. An
    /// entry's id is made from its date, time and title, so a second import updates it.
    struct Jrnl: Decodable {
        struct Entry: Decodable {
            var date: String
            var time: String?
            var title: String
            var body: String?
            var tags: [String]?
            var starred: Bool?
        }
        var entries: [Entry]

        func notes(notebook: String?) throws -> [Note] {
            try entries.enumerated().map { index, entry in
                let stamp = entry.date + (entry.time.map { " " + $0 } ?? "")
                guard let date = FrontMatter.date(stamp) else {
                    throw CLIError("entry \(index + 1): \"\(stamp)\" is not a date")
                }
                return Note(
                    id: ImportedNote.stableID("jrnl\n" + stamp + "\n" + entry.title),
                    zone: notebook ?? Note.defaultZone,
                    title: entry.title, body: entry.body ?? "", tags: (entry.tags ?? []).map(Self.unmarked),
                    isFavorite: entry.starred ?? false, createdAt: date, modifiedAt: date)
            }
        }

        static func unmarked(_ tag: String) -> String {
            var tag = tag
            while tag.hasPrefix("@") || tag.hasPrefix("#") { tag.removeFirst() }
            return tag
        }
    }

    /// Simplenote's export (`notes.json` in the web app's export zip, which sncli reads too):
    /// `{"activeNotes": [{"id", "content", "creationDate", "lastModified", "tags", "pinned",
    /// "markdown"}], "trashedNotes": […]}`. A note is one text: its first line is the title
    /// (a leading `# ` dropped) and the rest the body. Trashed notes go to the trash. The id is
    /// made from Simplenote's.
    struct Simplenote: Decodable {
        struct Item: Decodable {
            var id: String
            var content: String
            var creationDate: String?
            var lastModified: String?
            var tags: [String]?
            var pinned: Bool?
        }
        var activeNotes: [Item]?
        var trashedNotes: [Item]?

        func notes(notebook: String?, now: Date) throws -> [Note] {
            // `--from simplenote` on another JSON file: said, not read as "0 notes".
            guard activeNotes != nil || trashedNotes != nil else {
                throw CLIError("not a Simplenote export: it has no \"activeNotes\" or \"trashedNotes\"")
            }
            let active = try (activeNotes ?? []).map { try note($0, notebook: notebook, trashed: false, now: now) }
            return try active + (trashedNotes ?? []).map { try note($0, notebook: notebook, trashed: true, now: now) }
        }

        private func note(_ item: Item, notebook: String?, trashed: Bool, now: Date) throws -> Note {
            func date(_ text: String?, _ name: String) throws -> Date? {
                guard let text else { return nil }
                guard let date = FrontMatter.date(text) else {
                    throw CLIError("note \(item.id): \"\(name)\" is not a date")
                }
                return date
            }
            let modified = try date(item.lastModified, "lastModified")
            let created = try date(item.creationDate, "creationDate") ?? modified ?? now
            let scalars = item.content.unicodeScalars
            let lineEnd = scalars.firstIndex(of: "\n")
            var first = String(scalars[..<(lineEnd ?? scalars.endIndex)])
            if first.hasSuffix("\r") { first.removeLast() }
            let body = lineEnd.map { String(scalars[scalars.index(after: $0)...]) } ?? ""
            var title = first.trimmingCharacters(in: .whitespaces)
            if title.hasPrefix("# ") { title = String(title.dropFirst(2)).trimmingCharacters(in: .whitespaces) }
            return Note(
                id: ImportedNote.stableID("simplenote\n" + item.id), zone: notebook ?? Note.defaultZone, title: title,
                body: body, tags: item.tags ?? [], isFavorite: item.pinned ?? false, createdAt: created,
                modifiedAt: modified ?? created, deletedAt: trashed ? (modified ?? created) : nil)
        }
    }
}
