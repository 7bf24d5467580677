import Foundation
import GRDB
import NotesCore

/// Which notes a list shows.
public enum ListSection: String, Sendable, Equatable, CaseIterable {
    /// Favorites not in the trash (templates, in the `templates` notebook, are in no section but
    /// the trash).
    case favorites
    /// Notes not in the trash that are not favorites (the NOTES section under FAVORITES).
    case others
    /// Every note not in the trash but templates.
    case all
    /// Notes in the trash, most recently deleted first.
    case trash
}

public enum ListSort: String, Sendable, Equatable, CaseIterable {
    /// Most recently modified first.
    case modified
    /// By folded title, A to Z.
    case title
}

/// A page of a list: `limit` rows from `offset`.
public struct ListRequest: Sendable, Equatable {
    public var section: ListSection
    public var sort: ListSort
    public var offset: Int
    public var limit: Int

    public init(section: ListSection, sort: ListSort = .modified, offset: Int = 0, limit: Int = 200) {
        self.section = section
        self.sort = sort
        self.offset = offset
        self.limit = limit
    }
}

extension NoteStore {
    public func note(_ id: UUID) throws -> Note? {
        try read { db in try Self.fetchNote(db, id: id) }
    }

    static func fetchNote(_ db: Database, id: UUID) throws -> Note? {
        guard
            var note = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM note WHERE id = ?"), arguments: [id.lowercasedString]
            )
            .map({ try note(from: $0) })
        else { return nil }
        note.attachments = try fetchAttachments(note.idString, db)
        return note
    }

    /// The notebook (zone) of note `id`, in the trash or not; nil when there is no such note. One
    /// column, not the note: for a caller that needs only where a note is.
    public func zone(ofNote id: UUID) throws -> String? {
        try read { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT zone FROM note WHERE id = ?"), arguments: [id.lowercasedString])
        }
    }

    /// The id of a note row; a damaged one is a corrupt database, not a crash.
    static func noteID(_ row: Row) throws -> UUID { try noteID(row["id"] as String) }

    /// A note id as the store keeps it (a UUID string); a damaged one is an error that says so.
    static func noteID(_ text: String) throws -> UUID {
        guard let id = UUID(hexText: text) else {
            throw StoreError(
                .corrupt,
                "the database has a note with a damaged id (\(TerminalSafeText.sanitize(String(text.prefix(40))))); run `sqlite3 notes.sqlite 'PRAGMA integrity_check'` and restore from a backup or export"
            )
        }
        return id
    }

    static func note(from row: Row) throws -> Note {
        Note(
            id: try noteID(row), zone: row["zone"], title: row["title"], body: row["body"],
            tags: decodeTags(row["tags"]), isFavorite: row["isFavorite"],
            createdAt: Date(millisecondsSince1970: row["createdAt"]),
            modifiedAt: Date(millisecondsSince1970: row["modifiedAt"]),
            deletedAt: (row["deletedAt"] as Int64?).map(Date.init(millisecondsSince1970:)),
            headRev: row["headRev"], syncState: Note.SyncState(rawValue: row["syncState"]) ?? .pending,
            frontMatter: row["frontMatter"])
    }

    static func decodeTags(_ json: String) -> [String] {
        // Written by us as a JSON array; a damaged row shows no tags, its revision still holds them.
        if json == "[]" { return [] }
        if let plain = plainTags(json) { return plain }
        guard let value = try? JSONValue(parsing: Data(json.utf8)), let items = value.arrayValue else { return [] }
        return items.compactMap(\.stringValue)
    }

    /// The tags of `["a","b"]` written without escapes or control characters and with nothing
    /// between its tokens, split where JSON's parse would split them; nil for any other text
    /// (which the parse reads).
    /// Tags were a twentieth of the thread that reads a search's hits.
    static func plainTags(_ json: String) -> [String]? {
        var json = json
        return json.withUTF8 { bytes in
            plainTagRanges(bytes).map { ranges in
                ranges.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
            }
        }
    }

    /// Where each tag's bytes lie in `json` when it is a plain array (`["a","b"]`: no escapes or
    /// control characters, nothing between its tokens); nil for any other text.
    static func plainTagRanges(_ json: UnsafeBufferPointer<UInt8>) -> [Range<Int>]? {
        let (quote, comma) = (UInt8(ascii: "\""), UInt8(ascii: ","))
        let n = json.count
        // The last tag's closing quote is at `n - 2`.
        guard n >= 4, json[0] == UInt8(ascii: "["), json[1] == quote, json[n - 2] == quote,
            json[n - 1] == UInt8(ascii: "]")
        else { return nil }
        var ranges: [Range<Int>] = []
        var start = 2
        var index = 2
        while index < n - 2 {
            let byte = json[index]
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            guard byte == quote else {
                index += 1
                continue
            }
            // A tag ends only where `","` begins the next.
            guard index + 2 <= n - 2, json[index + 1] == comma, json[index + 2] == quote else { return nil }
            ranges.append(start..<index)
            start = index + 3
            index = start
        }
        // (`["a","]`: the last quote cannot both open a tag and close it.)
        guard start <= n - 2 else { return nil }
        ranges.append(start..<(n - 2))
        return ranges
    }

    /// The columns `summary(from:)` reads, by position: a query selects them first, in this order
    /// (columns after them are the query's own).
    static let summaryColumns = """
        id, zone, title, substr(body, 1, \(NoteSummary.previewLength)) AS preview, tags, isFavorite,
        createdAt, modifiedAt, deletedAt, syncState, length(CAST(body AS BLOB)) AS bodyLength
        """
    /// How many columns `summaryColumns` are: the position of a column selected after them.
    static let summaryColumnCount = 11

    /// A row of `summaryColumns`, read by position: GRDB finds a column by name by comparing it
    /// lowercased with each, which was a tenth of a long list's time.
    static func summary(from row: Row) throws -> NoteSummary {
        NoteSummary(
            id: try noteID(row[0] as String), zone: row[1], title: row[2], preview: row[3],
            tags: decodeTags(row[4]), isFavorite: row[5],
            createdAt: Date(millisecondsSince1970: row[6]),
            modifiedAt: Date(millisecondsSince1970: row[7]),
            deletedAt: (row[8] as Int64?).map(Date.init(millisecondsSince1970:)),
            syncState: Note.SyncState(rawValue: row[9]) ?? .pending, bodyLength: row[10])
    }

    /// One page of a list section.
    public func list(_ request: ListRequest) throws -> [NoteSummary] {
        try read { db in try Self.fetchList(db, request) }
    }

    static func fetchList(_ db: Database, _ request: ListRequest) throws -> [NoteSummary] {
        let (filter, order) = listClauses(request)
        if request.offset > 0, let seek = ListSeek(request) {
            guard let first = try seek.firstKey(db, request.offset) else { return [] }
            return try Row.fetchAll(
                db,
                sql: "SELECT \(summaryColumns) FROM note WHERE \(filter) AND \(seek.from) ORDER BY \(order) LIMIT ?",
                arguments: [first.sortKey, first.sortKey, first.id, request.limit]
            ).map { try summary(from: $0) }
        }
        return try Row.fetchAll(
            db,
            sql: "SELECT \(summaryColumns) FROM note WHERE \(filter) ORDER BY \(order) LIMIT ? OFFSET ?",
            arguments: [request.limit, request.offset]
        ).map { try summary(from: $0) }
    }

    /// A page of FAVORITES or NOTES from deep in the list (the app's window around a note after
    /// `Esc`, `G`, a scroll), found by its first row's key rather than by `OFFSET` over the rows:
    /// `OFFSET` read the table row of every note it skipped to leave the templates out (at 100k
    /// notes 106-146 ms for a window at row 49,000; the same rows skipped in the index alone take
    /// 5 ms). The skipping is done in the section's covering index (`note_by_modified`,
    /// `note_by_title`), which holds the templates too; the few templates are read on their own
    /// (`note_zone`) and taken out by their keys.
    struct ListSeek {
        /// The index's order: `modifiedAt DESC, id` or `sortTitle, id`.
        var column: String
        var descending: Bool
        var isFavorite: Bool

        /// A row's place in the order.
        struct Key {
            var sortKey: DatabaseValue
            var id: String
        }

        /// Nil for the sections and sorts no index orders (all, trash).
        init?(_ request: ListRequest) {
            switch request.section {
            case .favorites: isFavorite = true
            case .others: isFavorite = false
            case .all, .trash: return nil
            }
            switch request.sort {
            case .modified: (column, descending) = ("modifiedAt", true)
            case .title: (column, descending) = ("sortTitle", false)
            }
        }

        /// From `key` on, in the order: a range of the index SQLite seeks to.
        var from: String {
            descending
                ? "\(column) <= ? AND (\(column) < ? OR id >= ?)" : "\(column) >= ? AND (\(column) > ? OR id >= ?)"
        }

        /// The key of row `offset` of the section (templates left out); nil past its end.
        ///
        /// Row `j` of the index counting templates is row `j - t(j)` of the list, where `t(j)` is
        /// the number of templates at or before it; the row wanted is the least `j` with
        /// `j = offset + t(j)`, and `t` only grows with `j`, so it lies in `offset...offset + T`
        /// (`T` the section's templates), read from the index in one step.
        func firstKey(_ db: Database, _ offset: Int) throws -> Key? {
            let templates = try keys(
                db,
                "SELECT \(column), id FROM note WHERE zone = ? AND +deletedAt IS NULL AND +isFavorite = ?",
                [NoteTemplate.zone, isFavorite])
            let candidates = try keys(
                db,
                """
                SELECT \(column), id FROM note WHERE deletedAt IS NULL AND isFavorite = ?
                    ORDER BY \(column) \(descending ? "DESC" : ""), id LIMIT ? OFFSET ?
                """,
                [isFavorite, templates.count + 1, offset])
            var k = 0
            while k < candidates.count {
                let templatesSoFar = templates.count { !precedes(candidates[k], $0) }
                if templatesSoFar == k { return candidates[k] }
                // Always forward (it is, as `t` only grows): the loop ends whatever the rows say.
                k = max(templatesSoFar, k + 1)
            }
            return nil
        }

        /// Whether `a` comes before `b` in the order (SQLite's: numbers, and text by its bytes).
        func precedes(_ a: Key, _ b: Key) -> Bool {
            switch (a.sortKey.storage, b.sortKey.storage) {
            case (.int64(let x), .int64(let y)) where x != y: return descending ? x > y : x < y
            case (.string(let x), .string(let y)) where x != y:
                return x.utf8.lexicographicallyPrecedes(y.utf8) != descending
            default: return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
            }
        }

        func keys(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [Key] {
            try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map {
                Key(sortKey: $0[0], id: $0[1])
            }
        }
    }

    /// How many notes a section holds.
    public func count(_ section: ListSection) throws -> Int {
        try read { db in try Self.fetchCount(db, section) }
    }

    /// Counted in indexes, never in the note rows: `zone <> 'templates'` in a count's own filter
    /// made SQLite read every note's row (at 100k notes 210 ms of the app's first screen, with the
    /// file in the OS's cache). All live notes are every note (the smallest index) less the trash
    /// (`note_trash`) and the live templates (`note_zone`); favorites are their range of the partial
    /// index `note_by_modified` less the favorite templates: 3 ms at 100k notes.
    static func fetchCount(_ db: Database, _ section: ListSection) throws -> Int {
        switch section {
        case .all: return try liveCount(db)
        case .favorites: return try favoriteCount(db)
        case .others: return try liveCount(db) - favoriteCount(db)
        case .trash:
            let (filter, _) = listClauses(ListRequest(section: section))
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM note WHERE \(filter)") ?? 0
        }
    }

    /// Note `id`'s row in the whole list, FAVORITES then NOTES, each in `list`'s order
    /// (`modifiedAt DESC, id`); nil when it is not listed (trashed, a template, gone). The rows
    /// before it are counted in its section's range of the partial index `note_by_modified`,
    /// in one read: the app's `Esc` out of a search asks this, and a binary search of one-row
    /// `list` pages walked up to the whole section per probe through OFFSET (issue 27).
    public func listRow(of id: UUID) throws -> Int? {
        let key = id.lowercasedString
        return try read { db in
            guard
                let note = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT isFavorite, modifiedAt, deletedAt, zone FROM note WHERE id = ?"),
                    arguments: [key])
            else { return nil }
            let deletedAt: Int64? = note["deletedAt"]
            let zone: String = note["zone"]
            guard deletedAt == nil, zone != NoteTemplate.zone else { return nil }
            let favorite: Bool = note["isFavorite"]
            let modified: Int64 = note["modifiedAt"]
            let arguments: StatementArguments = [favorite, modified, modified, key]
            let before =
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT count(*) FROM note WHERE deletedAt IS NULL AND isFavorite = ?
                                AND modifiedAt >= ? AND (modifiedAt > ? OR id < ?)
                            """),
                    arguments: arguments) ?? 0
            // Templates before it, found through `note_zone` (the `+` keeps SQLite off
            // `note_by_modified`, which would read the row of every note in the range).
            let templates =
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT count(*) FROM note WHERE zone = ? AND +deletedAt IS NULL AND +isFavorite = ?
                                AND +modifiedAt >= ? AND (+modifiedAt > ? OR +id < ?)
                            """),
                    arguments: [NoteTemplate.zone] + arguments) ?? 0
            return (favorite ? 0 : try Self.favoriteCount(db)) + before - templates
        }
    }

    /// The count of live notes; its one argument is the templates' zone.
    static let liveCountSQL = """
        SELECT (SELECT count(*) FROM note) - (SELECT count(*) FROM note WHERE deletedAt IS NOT NULL)
            - (SELECT count(*) FROM note WHERE zone = ? AND deletedAt IS NULL)
        """

    /// The count of live favorites; its one argument is the templates' zone.
    static let favoriteCountSQL = """
        SELECT (SELECT count(*) FROM note WHERE deletedAt IS NULL AND isFavorite = 1)
            - (SELECT count(*) FROM note WHERE zone = ? AND deletedAt IS NULL AND isFavorite = 1)
        """

    private static func liveCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: liveCountSQL), arguments: [NoteTemplate.zone]) ?? 0
    }

    private static func favoriteCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: favoriteCountSQL), arguments: [NoteTemplate.zone]) ?? 0
    }

    /// WHERE and ORDER BY that match the partial indexes of the schema.
    private static func listClauses(_ request: ListRequest) -> (String, String) {
        // Templates are kept out of the lists (and out of search unless it asks for their
        // notebook, `SearchPlan`): they are tools, not notes. Their notebook lists them.
        let notTemplate = "zone <> '\(NoteTemplate.zone)'"
        let filter: String
        switch request.section {
        case .favorites: filter = "deletedAt IS NULL AND isFavorite = 1 AND \(notTemplate)"
        case .others: filter = "deletedAt IS NULL AND isFavorite = 0 AND \(notTemplate)"
        case .all: filter = "deletedAt IS NULL AND \(notTemplate)"
        case .trash: return ("deletedAt IS NOT NULL", "deletedAt DESC, id")
        }
        switch request.sort {
        case .modified: return (filter, "modifiedAt DESC, id")
        case .title: return (filter, "sortTitle, id")
        }
    }

    /// Finds the note a user means: a full id, a unique id prefix, or an exact title.
    /// Several matches throw `.ambiguous` listing them; none throws `.notFound`.
    public func resolve(_ reference: String) throws -> Note {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw StoreError(.notFound, "no note given") }
        return try read { db in
            if let id = UUID(uuidString: trimmed), let note = try Self.fetchNote(db, id: id) { return note }
            let unique = try Self.ids(matching: reference, db)
            if unique.count == 1, let id = UUID(uuidString: unique[0]), let note = try Self.fetchNote(db, id: id) {
                return note
            }
            let shown = TerminalSafeText.sanitize(trimmed)
            if unique.isEmpty {
                throw StoreError(.notFound, "no note matches \"\(shown)\" (by id, id prefix or exact title)")
            }
            let candidates = try Row.fetchAll(
                db,
                sql:
                    "SELECT \(Self.summaryColumns) FROM note WHERE id IN (\(unique.map { _ in "?" }.joined(separator: ","))) ORDER BY modifiedAt DESC",
                arguments: StatementArguments(unique)
            ).map { try Self.summary(from: $0) }
            throw StoreError(
                .ambiguous, "\"\(shown)\" matches \(unique.count) notes; use more of the id", candidates: candidates)
        }
    }

    /// The ids of the notes `reference` names by id prefix or exact title (at most 20 of each),
    /// sorted: index lookups only, whatever the store's size.
    static func ids(matching reference: String, _ db: Database) throws -> [String] {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        var ids: [String] = []
        if let range = idPrefixRange(trimmed) {
            ids += try String.fetchAll(
                db.cachedStatement(sql: "SELECT id FROM note WHERE id >= ? AND id < ? ORDER BY id LIMIT 20"),
                arguments: [range.lowerBound, range.upperBound])
        }
        // The title as typed first, so a title with outer spaces can be named exactly.
        var byTitle = try self.ids(titled: reference, db)
        if byTitle.isEmpty && trimmed != reference { byTitle = try self.ids(titled: trimmed, db) }
        ids += byTitle
        return Array(Set(ids)).sorted()
    }

    /// The ids that begin with `prefix` are those in `lower..<upper` (ids are lowercase hex
    /// UUIDs): a range of the primary key's index, not a scan. Nil when `prefix` cannot begin an id.
    static func idPrefixRange(_ prefix: String) -> Range<String>? {
        let lower = prefix.lowercased()
        guard !lower.isEmpty, lower.count <= 36, lower.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
        // The successor: the last character incremented ("-" < "0"-"9" < "a"-"f" in ASCII, and
        // "g", ":", "." are never in an id, so they bound the range as well as any successor).
        var scalars = Array(lower.unicodeScalars)
        guard let last = scalars.last, let successor = Unicode.Scalar(last.value + 1) else { return nil }
        scalars[scalars.count - 1] = successor
        return lower..<String(String.UnicodeScalarView(scalars))
    }

    /// Notes whose title is exactly `title` (at most 20), found through indexes: a title's fold
    /// is its `sortTitle`, so live notes are a lookup in `note_by_title` (one per `isFavorite`
    /// value) and notes in the trash one in `note_trash_by_title` (v8). A scan of every title
    /// cost 260 ms at 100k notes for each id prefix (the prefix could be a title as well).
    static func ids(titled title: String, _ db: Database) throws -> [String] {
        let statement = try db.indexedStatement(
            sql: """
                SELECT id FROM note INDEXED BY note_by_title
                WHERE isFavorite IN (0, 1) AND sortTitle = ?1 AND deletedAt IS NULL AND title = ?2
                UNION ALL
                SELECT id FROM note INDEXED BY note_trash_by_title
                WHERE sortTitle = ?1 AND deletedAt IS NOT NULL AND title = ?2
                ORDER BY id LIMIT 20
                """)
        return try String.fetchAll(statement, arguments: [TextFolding.fold(title), title])
    }

    /// A note's revisions, newest first: its history.
    public func history(_ id: UUID) throws -> [Revision] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM revision WHERE recordID = ? ORDER BY hlc DESC, id",
                arguments: [id.lowercasedString]
            ).map { try Self.revision(from: $0, db) }
        }
    }

    /// The `recordID` column of a row as a UUID; a row whose id is not one is damage.
    static func recordID(of row: Row) throws -> UUID {
        let text: String = row["recordID"]
        guard let id = UUID(uuidString: text) else {
            throw StoreError(.corrupt, "the database holds a record id that is not a UUID: \(text)")
        }
        return id
    }

    /// Every tag in use by notes outside the trash, with how many notes carry it.
    /// Counted from `note_tag` alone, minus the tags of trashed notes (found through
    /// `note_trash`): joining every tag row to its note read each note's row past its body
    /// (`deletedAt` comes after it), 670 ms at 100k notes.
    public func tagCounts() throws -> [(tag: String, count: Int)] {
        try read { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT tag, count(*) AS n FROM note_tag GROUP BY tag") {
                counts[row["tag"]] = row["n"]
            }
            for row in try Row.fetchAll(
                db.indexedStatement(
                    sql: """
                        SELECT t.tag, count(*) AS n FROM note n INDEXED BY note_trash JOIN note_tag t ON t.noteID = n.id
                        WHERE n.deletedAt IS NOT NULL GROUP BY t.tag
                        """))
            {
                let tag: String = row["tag"]
                counts[tag, default: 0] -= row["n"] as Int
            }
            return counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }

    /// Pending record zone changes, oldest first: what sync has yet to send.
    public func pendingChanges(limit: Int = 400) throws -> [PendingChange] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM outbox ORDER BY seq LIMIT ?"), arguments: [limit])
                .map {
                    PendingChange(
                        seq: $0["seq"], recordID: try Self.recordID(of: $0), zone: $0["zone"],
                        revisionID: $0["revID"], kind: $0["kind"] == "delete" ? .delete : .save)
                }
        }
    }

    /// Those of shared notebooks are counted by their places' engines (`pendingCount(inZone:)`).
    public func pendingCount() throws -> Int {
        try read { db in
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM outbox WHERE zone NOT GLOB ?"),
                arguments: [NotebookSlug.sharedZoneGlob]) ?? 0
        }
    }
}

/// One outbox row: a revision of a record waiting to be sent (CKSyncEngine's
/// `pendingRecordZoneChanges`).
public struct PendingChange: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case save, delete }
    public var seq: Int64
    public var recordID: UUID
    public var zone: String
    public var revisionID: String
    public var kind: Kind
}
