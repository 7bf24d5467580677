import Foundation
import GRDB
import NotesCore

/// Templates and daily notes (ARCHITECTURE §2): a template is a note in the `templates`
/// notebook, named by its title.
extension NoteStore {
    /// The template titled `name` (folded: case and accents do not matter), outside the trash;
    /// the oldest when several share the title.
    public func template(named name: String) throws -> Note? {
        try read { db in
            let id = try String.fetchOne(
                db,
                sql: """
                    SELECT id FROM note WHERE isFavorite IN (0, 1) AND sortTitle = ? AND deletedAt IS NULL AND zone = ?
                    ORDER BY createdAt, id LIMIT 1
                    """, arguments: [TextFolding.fold(name), NoteTemplate.zone])
            return try id.flatMap(UUID.init(uuidString:)).flatMap { try Self.fetchNote(db, id: $0) }
        }
    }

    /// A new note made from a template: its title (else `title`, else the template's own title)
    /// and body with placeholders filled, its tags, in `zone`; `body` is appended after the
    /// template's text.
    public func create(
        fromTemplate name: String, title: String?, body: String = "", tags: [String] = [],
        zone: String = Note.defaultZone, date: Date, timeZone: TimeZone
    ) throws -> Note {
        guard let template = try template(named: name) else {
            throw StoreError(
                .notFound,
                "no template named \"\(TerminalSafeText.sanitize(name))\" (templates are notes in the \(NoteTemplate.zone) notebook)"
            )
        }
        let rawTitle = title.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } ?? template.title
        let newTitle = NoteTemplate.expand(rawTitle, date: date, title: "", timeZone: timeZone)
        var text = NoteTemplate.expand(template.body, date: date, title: newTitle, timeZone: timeZone)
        if !body.isEmpty { text += (text.isEmpty || text.hasSuffix("\n") ? "" : "\n") + body }
        return try create(title: newTitle, body: text, tags: template.tags + tags, zone: zone)
    }

    /// The day's note, titled `yyyy-MM-dd` in `timeZone`: the one outside the trash with that
    /// title, else a new one in the default notebook from the `Daily` template (or empty
    /// without one; `template` names another, which must exist).
    public func dailyNote(date: Date, timeZone: TimeZone, template: String? = nil) throws -> (note: Note, created: Bool)
    {
        let title = NoteTemplate.day(date, timeZone: timeZone)
        let existing = try read { db in
            try Self.ids(titled: title, db).compactMap(UUID.init(uuidString:)).compactMap {
                try Self.fetchNote(db, id: $0)
            }
            .filter { !$0.isTrashed }.sorted { ($0.createdAt, $0.idString) < ($1.createdAt, $1.idString) }.first
        }
        if let existing { return (existing, false) }
        let name = template ?? NoteTemplate.dailyName
        if template == nil, try self.template(named: name) == nil {
            return (try create(title: title, body: ""), true)
        }
        return (try create(fromTemplate: name, title: title, date: date, timeZone: timeZone), true)
    }
}
