import Foundation
import GRDB
import NotesCore

/// Links between notes (ARCHITECTURE §2, links). A link names a note by title or by file name
/// (folded, as `sortTitle`), or, when no note outside the trash has that title, by one of the
/// `aliases` in a note's front matter, as Obsidian resolves them; when several notes carry it, the one
/// nearest the linking note wins, as Obsidian resolves a name to the nearest file: the notebook
/// the link's path names, then the linking note's own notebook, then the default notebook (the
/// vault's root), then the oldest note (by creation, then id). Links are resolved when read, so
/// creating, renaming or trashing a note changes where links lead without rewriting the index.
extension NoteStore {
    /// The links of a note's body, in order, each with the note it leads to.
    public func links(of id: UUID) throws -> [ResolvedLink] {
        try read { db in
            guard let source = try Self.fetchNote(db, id: id) else {
                throw StoreError(.notFound, "no note with id \(id.lowercasedString)")
            }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT kind, target, targetKey, folderZone, heading, shown FROM note_link
                    WHERE noteID = ? ORDER BY position
                    """, arguments: [id.lowercasedString])
            var cache: [String: [Candidate]] = [:]
            var summaries: [String: NoteSummary] = [:]
            return try rows.map { row in
                let key: String = row["targetKey"]
                if cache[key] == nil { cache[key] = try Self.candidates(key, db) }
                let chosen = Self.pick(cache[key] ?? [], folderZone: row["folderZone"], sourceZone: source.zone)
                if let chosen, summaries[chosen] == nil { summaries[chosen] = try Self.summaries([chosen], db).first }
                return ResolvedLink(
                    kind: NoteLink.Kind(rawValue: row["kind"]) ?? .wiki, target: row["target"],
                    heading: row["heading"], shown: row["shown"], note: chosen.flatMap { summaries[$0] })
            }
        }
    }

    /// The note a link names (`target`, with the folder its path names) leads to from the note
    /// `from`, as `links(of:)` resolves it; nil when no note outside the trash has that title.
    public func resolveLink(_ target: String, folder: String?, from: UUID) throws -> UUID? {
        try read { db in
            let zone = try String.fetchOne(
                db, sql: "SELECT zone FROM note WHERE id = ?", arguments: [from.lowercasedString])
            let chosen = Self.pick(
                try Self.candidates(TextFolding.fold(target), db),
                folderZone: folder.map(NotebookSlug.slug(ofFolderPath:)), sourceZone: zone ?? Note.defaultZone)
            return chosen.flatMap(UUID.init(uuidString:))
        }
    }

    /// The notes outside the trash whose links lead to this note, by title: one lookup of the
    /// links that name its title, joined to the linking notes' titles (never their bodies).
    public func backlinks(of id: UUID) throws -> [LinkedNote] {
        try read { db in
            guard let note = try Self.fetchNote(db, id: id) else {
                throw StoreError(.notFound, "no note with id \(id.lowercasedString)")
            }
            guard note.deletedAt == nil else { return [] }
            // Hot at 100k notes (a note linked from 1,000): one cached statement read through a
            // cursor, columns by index, the note's id string made once, and a sort on keys made
            // once per row (the comparator made two `idString`s per comparison).
            let target = note.idString
            let statement = try db.cachedStatement(
                sql: """
                    SELECT l.noteID, l.folderZone, n.zone, n.title, n.sortTitle FROM note_link l
                    JOIN note n ON n.id = l.noteID WHERE l.targetKey = ? AND n.deletedAt IS NULL
                    """)
            var seen: Set<String> = []
            var found: [(sortTitle: String, id: String, note: LinkedNote)] = []
            for key in Self.names(of: note) {
                let candidates = try Self.candidates(key, db)
                let rows = try Row.fetchCursor(statement, arguments: [key])
                while let row = try rows.next() {
                    let source: String = row[0]
                    guard !seen.contains(source) else { continue }
                    let zone: String = row[2]
                    guard Self.pick(candidates, folderZone: row[1], sourceZone: zone) == target,
                        let sourceID = UUID(uuidString: source)
                    else { continue }
                    seen.insert(source)
                    found.append((row[4], source, LinkedNote(id: sourceID, title: row[3], zone: zone)))
                }
            }
            found.sort { $0.sortTitle != $1.sortTitle ? $0.sortTitle < $1.sortTitle : $0.id < $1.id }
            return found.map(\.note)
        }
    }

    /// Renames a note; with `updateLinks`, every link that leads to it is rewritten to the new
    /// title (`[[Old#h|x]]` → `[[New#h|x]]`, `[x](Old%20Title.md)` → `[x](New%20Title.md)`), each
    /// linking note a normal edit, all in one transaction. Returns the note and how many notes
    /// were rewritten (with `updateLinks` false: how many link to it and were left as they are).
    public func rename(_ id: UUID, to title: String, updateLinks: Bool) throws -> (note: Note, linking: Int) {
        try write { db in
            guard let current = try Self.fetchNote(db, id: id) else {
                throw StoreError(.notFound, "no note with id \(id.lowercasedString)")
            }
            let sources = try Self.backlinkSources(current, db)
            let renamed =
                try edited(current) { $0.title = title }.map { try save($0, previous: current, db) } ?? current
            guard updateLinks, renamed.title != current.title else { return (renamed, sources.count) }
            let rewritten = try rewriteLinks(to: renamed, from: current.title, db)
            return (try Self.fetchNote(db, id: id) ?? renamed, rewritten)
        }
    }

    /// How many notes outside the trash link to `oldTitle` in a way that leads to note `id` when
    /// it has that title, whatever title it holds now (the app asks before
    /// `updateLinks(to:fromOldTitle:)`, once the note was retitled in its editor, maybe while the
    /// save of the latest title still waits for the one before).
    public func notesLinking(to id: UUID, byOldTitle oldTitle: String) throws -> Int {
        try read { db in
            guard let note = try Self.fetchNote(db, id: id), note.deletedAt == nil else { return 0 }
            return try Self.linkSources(to: note, byTitle: oldTitle, db).sources.count
        }
    }

    /// Rewrites the links that led to note `id` by its old title to its title now, as
    /// `rename(_:to:updateLinks:)` does (the same code), for a note already retitled (the app's
    /// editor saves the title as it is typed). Returns how many notes were rewritten.
    @discardableResult
    public func updateLinks(to id: UUID, fromOldTitle oldTitle: String) throws -> Int {
        try write { db in
            guard let note = try Self.fetchNote(db, id: id), note.title != oldTitle else { return 0 }
            return try rewriteLinks(to: note, from: oldTitle, db)
        }
    }

    /// The notes outside the trash with a link to `oldTitle` that leads to `note` when the note
    /// is taken to have that title (whatever it holds now), and the candidates that decide it.
    static func linkSources(to note: Note, byTitle oldTitle: String, _ db: Database) throws -> (
        sources: Set<String>, candidates: [Candidate]
    ) {
        guard note.deletedAt == nil else { return ([], []) }
        let oldKey = TextFolding.fold(oldTitle)
        // Links by title only (an alias stays an alias); the note itself as if it still had the title.
        var candidates = try candidates(oldKey, db, byAlias: false).filter { $0.id != note.idString }
        candidates.append(Candidate(id: note.idString, zone: note.zone, createdAt: millis(note)))
        let sources = try linkSources(to: note.idString, key: oldKey, candidates, db)
        return (sources, candidates)
    }

    /// Rewrites, in each note that links to `renamed` by `oldTitle`, the links that lead to it
    /// (`[[Old#h|x]]` → `[[New#h|x]]`, `[x](Old%20Title.md)` → `[x](New%20Title.md)`): each
    /// linking note a normal edit, in the caller's transaction. Returns how many notes changed.
    func rewriteLinks(to renamed: Note, from oldTitle: String, _ db: Database) throws -> Int {
        let oldKey = TextFolding.fold(oldTitle)
        let (sources, candidates) = try Self.linkSources(to: renamed, byTitle: oldTitle, db)
        var rewritten = 0
        for source in sources.sorted() {
            guard let sourceID = UUID(uuidString: source), let note = try Self.fetchNote(db, id: sourceID) else {
                continue
            }
            var bytes = Array(note.body.utf8)
            let links = LinkParser.links(in: note.body).filter {
                TextFolding.fold($0.target) == oldKey
                    && Self.pick(
                        candidates, folderZone: $0.folder.map(NotebookSlug.slug(ofFolderPath:)), sourceZone: note.zone)
                        == renamed.idString
            }
            for link in links.reversed() {
                let replacement = link.kind == .wiki ? renamed.title : LinkParser.encodedFileStem(renamed.title)
                bytes.replaceSubrange(link.targetRange, with: Array(replacement.utf8))
            }
            let body = String(decoding: bytes, as: UTF8.self)
            if let next = try edited(note, { $0.body = body }) {
                _ = try save(next, previous: note, db)
                rewritten += 1
            }
        }
        return rewritten
    }

    struct Candidate {
        var id: String
        var zone: String
        var createdAt: Int64
    }

    static func millis(_ note: Note) -> Int64 { note.createdAt.millisecondsSince1970 }

    /// Notes outside the trash whose folded title is `key`; when there is none, those with
    /// `key` among their aliases (a title always wins over an alias).
    static func candidates(_ key: String, _ db: Database, byAlias: Bool = true) throws -> [Candidate] {
        let byTitle = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT id, zone, createdAt FROM note
                    WHERE isFavorite IN (0, 1) AND sortTitle = ? AND deletedAt IS NULL
                    """), arguments: [key]
        ).map { Candidate(id: $0["id"], zone: $0["zone"], createdAt: $0["createdAt"]) }
        guard byTitle.isEmpty, byAlias else { return byTitle }
        return try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT n.id, n.zone, n.createdAt FROM note_alias a JOIN note n ON n.id = a.noteID
                    WHERE a.aliasKey = ? AND n.deletedAt IS NULL
                    """), arguments: [key]
        ).map { Candidate(id: $0["id"], zone: $0["zone"], createdAt: $0["createdAt"]) }
    }

    /// The folded names links may use for `note`: its title, then its aliases.
    static func names(of note: Note) -> [String] {
        let title = TextFolding.fold(note.title)
        let aliases = note.frontMatter == nil ? [] : MarkdownNote.aliases(of: note).map(TextFolding.fold)
        var seen: Set<String> = [title]
        return [title] + aliases.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The nearest candidate (see the type's comment); nil when there is none.
    static func pick(_ candidates: [Candidate], folderZone: String?, sourceZone: String) -> String? {
        if candidates.count <= 1 { return candidates.first?.id }
        return candidates.min { a, b in
            func rank(_ c: Candidate) -> (Int, Int, Int, Int64, String) {
                (
                    c.zone == folderZone ? 0 : 1, c.zone == sourceZone ? 0 : 1, c.zone == Note.defaultZone ? 0 : 1,
                    c.createdAt, c.id
                )
            }
            return rank(a) < rank(b)
        }?.id
    }

    /// Ids of the notes outside the trash with a link that resolves to `note`: one indexed
    /// lookup of the links that name its title.
    /// The notes with a link under `key` that resolves to `id` among `candidates` (the nearest
    /// folder first, as every link is resolved).
    static func linkSources(to id: String, key: String, _ candidates: [Candidate], _ db: Database) throws
        -> Set<String>
    {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT l.noteID, l.folderZone, n.zone FROM note_link l JOIN note n ON n.id = l.noteID
                WHERE l.targetKey = ? AND n.deletedAt IS NULL
                """, arguments: [key])
        var sources: Set<String> = []
        for row in rows {
            let source: String = row["noteID"]
            if sources.contains(source) { continue }
            if pick(candidates, folderZone: row["folderZone"], sourceZone: row["zone"]) == id {
                sources.insert(source)
            }
        }
        return sources
    }

    static func backlinkSources(_ note: Note, _ db: Database) throws -> Set<String> {
        guard note.deletedAt == nil else { return [] }
        // Links by title only: `rename --update-links` rewrites those (an alias stays an alias).
        let key = TextFolding.fold(note.title)
        let candidates = try candidates(key, db)
        let sources = try linkSources(to: note.idString, key: key, candidates, db)
        return sources
    }

    /// Summaries of notes by id, by title.
    static func summaries(_ ids: [String], _ db: Database) throws -> [NoteSummary] {
        var result: [NoteSummary] = []
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            let marks = chunk.map { _ in "?" }.joined(separator: ",")
            result += try Row.fetchAll(
                db, sql: "SELECT \(summaryColumns) FROM note WHERE id IN (\(marks))",
                arguments: StatementArguments(chunk)
            ).map { try summary(from: $0) }
        }
        return result.sorted { (TextFolding.fold($0.title), $0.idString) < (TextFolding.fold($1.title), $1.idString) }
    }
}
