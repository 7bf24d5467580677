import Foundation
import GRDB
import NotesCore

/// One search result, with what a UI needs to highlight it.
public struct SearchHit: Sendable, Equatable {
    public var note: NoteSummary
    /// 0: every term is in the title; 1: some are; 2: none are (body or tags only).
    public var tier: Int
    /// Character ranges of the title to highlight.
    public var titleMatches: [Range<Int>]
    /// A body line around the first match (or the first line when the match is elsewhere).
    public var snippet: String
    public var snippetMatches: [Range<Int>]
}

/// Where the next page of a search starts (keyset pagination: tier, then searchRowid).
public struct SearchCursor: Sendable, Equatable, Hashable {
    public var tier: Int
    public var rowid: Int64
    /// With `sort:`: how many hits earlier pages held (the order is by a column, not by rowid).
    public var offset: Int?
}

public struct SearchPage: Sendable, Equatable {
    public var hits: [SearchHit]
    /// nil when there are no more results.
    public var next: SearchCursor?
}

extension NoteStore {
    /// Searches with ARCHITECTURE §5 semantics: every term a case- and diacritic-insensitive substring
    /// of the title, body or a tag; ranked by tier (all terms in the title, some, none), then by
    /// recency, or ordered by `sort:`. Trashed notes are not searched.
    ///
    /// Each tier walks its candidates in recency order (searchRowid descending) and stops at
    /// `limit`: nothing is scored or sorted. `SearchPlan` decides per term whether the trigram
    /// index or a scan of the newest notes finds it faster. Relative dates (`today`, `7d`) count
    /// from the store's clock; dates are read in `timeZone`. A notebook the query names that
    /// does not exist is an error (`StoreError.notFound`).
    public func search(
        _ query: SearchQuery, limit: Int = 50, after cursor: SearchCursor? = nil, timeZone: TimeZone = .current
    ) throws -> SearchPage {
        let now = clock()
        return try read { db in
            let zones = try Self.searchZones(query, db)
            var plan = try SearchPlan(
                query, segments: segmentCache.segments(db), zones: zones, now: now, timeZone: timeZone, db)
            var maker = HitMaker(query)
            if let sort = query.sort {
                let page = try sorted(&plan, by: sort, limit: limit, after: cursor, db)
                return SearchPage(
                    hits: try Self.read(page.rowids, Self.hitColumns, db) { tier, found in
                        try maker.hit(FoundHit(tier: tier, found.columns))
                    },
                    next: page.next)
            }
            let hinted = maker.takesLineHints(of: query)
            var found: [(rowid: Int64, tier: Int, hit: SearchHit)] = []
            var tier = cursor?.tier ?? 0
            var after = cursor?.rowid
            // One row more than the page shows tells whether another page exists.
            while tier <= 2, found.count <= limit {
                found += try plan.find(
                    tier: tier, after: after, limit: limit + 1 - found.count, reading: Self.hitColumns, db
                ) { [tier] found in
                    let hit = FoundHit(tier: tier, found.columns, firstMatch: hinted ? found.firstMatch : nil)
                    return (found.rowid, tier, try maker.hit(hit))
                }
                if found.count > limit { break }
                tier += 1
                after = nil
            }
            var next: SearchCursor?
            if found.count > limit {
                found.removeLast(found.count - limit)
                next = found.last.map { SearchCursor(tier: $0.tier, rowid: $0.rowid) }
            }
            return SearchPage(hits: found.map(\.hit), next: next)
        }
    }

    /// The hits `search(query, limit:)` gives, in the same order, handed to `each` a chunk at
    /// a time as the index yields them (issue 27): only a few chunks' rows and snippets are
    /// held at once, so a search of every match holds a few chunks, and its first results are
    /// printed before the last are found. With `sort:` every hit is found and ordered first
    /// (one chunk).
    ///
    /// Two threads share the work (D-234): one reads and checks the notes and copies each
    /// found one's summary and head out of its row; the caller's thread makes the snippets
    /// and highlights and runs `each`, up to two chunks behind. An error `each` throws stops
    /// the reading and is thrown; so is one the reading meets, after the chunks before it.
    /// `each` must not use the store: the reading holds it until the search ends. Without
    /// `highlightingTitles` the hits' `titleMatches` are left empty (a caller that shows no
    /// highlights need not have them looked for). Without `previews` a hit's `note.preview` is
    /// empty but where its snippet is the preview's (no line of its body gives one): a caller
    /// that prints the hits' snippets need not have the rest made.
    public func searchEach(
        _ query: SearchQuery, limit: Int, chunk: Int = 64, timeZone: TimeZone = .current,
        highlightingTitles: Bool = true, previews: Bool = true, _ each: ([SearchHit]) throws -> Void
    ) throws {
        let handoff = Handoff<[FoundHit]>(capacity: 2)
        var maker = HitMaker(query)
        maker.highlightsTitles = highlightingTitles
        maker.makesPreviews = previews
        let hinted = maker.takesLineHints(of: query)
        let reading = BackgroundResult(ownThread: { [self] in
            defer { handoff.close() }
            try eachFound(
                query, limit: limit, chunk: chunk, timeZone: timeZone, reading: Self.hitColumns,
                { found in guard handoff.put(found) else { throw SearchStopped() } }
            ) { tier, found in FoundHit(tier: tier, found.columns, firstMatch: hinted ? found.firstMatch : nil) }
        })
        do {
            while let found = handoff.take() { try each(found.map { try maker.hit($0) }) }
        } catch {
            handoff.cancel()
            _ = try? reading.get()
            throw error
        }
        try reading.get()
    }

    /// The reading of `searchEach` stops: its caller threw.
    private struct SearchStopped: Error {}

    /// The ids of the notes `searchEach` hands over, in the same order, a chunk at a time,
    /// without building their rows and snippets: what a script that wants every match reads
    /// (`search --ids`, as `rg -l` lists files).
    public func searchEachID(
        _ query: SearchQuery, limit: Int, chunk: Int = 1024, timeZone: TimeZone = .current,
        _ each: ([String]) throws -> Void
    ) throws {
        try eachFound(
            query, limit: limit, chunk: chunk, timeZone: timeZone, reading: SearchPlan.RowColumns(sql: "id", count: 1),
            each
        ) { _, found in found.row[0] }
    }

    /// Walks the notes `query` finds as the index yields them, a chunk at a time, in one read:
    /// what `make` makes of each (given its tier and the note as read in the step that checked
    /// it: its row's first columns are `extra`'s). With `sort:` every hit is found and ordered
    /// first (one chunk).
    private func eachFound<Found>(
        _ query: SearchQuery, limit: Int, chunk: Int, timeZone: TimeZone, reading extra: SearchPlan.RowColumns,
        _ each: ([Found]) throws -> Void, make: (_ tier: Int, SearchPlan.FoundRow) throws -> Found
    ) throws {
        let now = clock()
        try read { db in
            let zones = try Self.searchZones(query, db)
            var plan = try SearchPlan(
                query, segments: segmentCache.segments(db), zones: zones, now: now, timeZone: timeZone, db)
            if let sort = query.sort {
                let page = try sorted(&plan, by: sort, limit: limit, after: nil, db)
                try each(try Self.read(page.rowids, extra, db, make))
                return
            }
            var left = limit
            for tier in 0...2 where left > 0 {
                var after: Int64?
                while left > 0 {
                    let asked = min(chunk, left)
                    let found = try plan.find(tier: tier, after: after, limit: asked, reading: extra, db) {
                        found in (found.rowid, try make(tier, found))
                    }
                    if !found.isEmpty { try each(found.map(\.1)) }
                    left -= found.count
                    guard found.count == asked, let last = found.last else { break }
                    after = last.0
                }
            }
        }
    }

    /// What `make` makes of the row of each note in `rowids` (searchRowid and tier), in order;
    /// a note that has no such rowid since is left out. The row has `columns`.
    private static func read<Found>(
        _ rowids: [(Int64, Int)], _ columns: SearchPlan.RowColumns, _ db: Database,
        _ make: (_ tier: Int, SearchPlan.FoundRow) throws -> Found
    ) throws -> [Found] {
        let statement = try db.cachedStatement(sql: "SELECT \(columns.sql) FROM note WHERE searchRowid = ?")
        var result: [Found] = []
        result.reserveCapacity(rowids.count)
        let current = CurrentRow(statement)
        for (rowid, tier) in rowids {
            // The row is the statement's current row: the cursor lives while it is made.
            let rows = try Row.fetchCursor(statement, arguments: [rowid])
            try withExtendedLifetime(rows) {
                if let row = try rows.next() {
                    result.append(
                        try make(tier, SearchPlan.FoundRow(rowid: rowid, row: row, columns: current, firstMatch: nil)))
                }
            }
        }
        return result
    }

    /// Convenience: parses `text` with the §5 syntax.
    public func search(
        _ text: String, limit: Int = 50, after cursor: SearchCursor? = nil, timeZone: TimeZone = .current
    ) throws -> SearchPage {
        try search(SearchQuery(parsing: text), limit: limit, after: cursor, timeZone: timeZone)
    }

    /// A page of the hits (searchRowid, tier) ordered by `sort` (newest created or modified
    /// first, or title A to Z; newest first among equals): all hits are found, then ordered by
    /// their column.
    private func sorted(
        _ plan: inout SearchPlan, by sort: SearchQuery.Sort, limit: Int, after cursor: SearchCursor?, _ db: Database
    ) throws -> (rowids: [(Int64, Int)], next: SearchCursor?) {
        var all: [(rowid: Int64, tier: Int)] = []
        for tier in 0...2 {
            all += try plan.find(tier: tier, after: nil, limit: Int.max / 2, db).map { ($0, tier) }
        }
        let column =
            switch sort {
            case .created: "createdAt"
            case .modified: "modifiedAt"
            case .title: "sortTitle"
            }
        var keys: [Int64: DatabaseValue] = [:]
        var start = 0
        while start < all.count {
            let chunk = all[start..<min(start + 10_000, all.count)]
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT searchRowid, \(column) FROM note WHERE searchRowid IN ("
                    + chunk.map { _ in "?" }.joined(separator: ",") + ")",
                arguments: StatementArguments(chunk.map(\.rowid)))
            for row in rows { keys[row[0]] = row[1] }
            start += chunk.count
        }
        all.sort { a, b in
            let (x, y) = (keys[a.rowid] ?? .null, keys[b.rowid] ?? .null)
            if x != y {
                switch sort {
                case .title:
                    // Byte order, as SQLite and the list's title order compare.
                    return (String.fromDatabaseValue(x) ?? "").utf8.lexicographicallyPrecedes(
                        (String.fromDatabaseValue(y) ?? "").utf8)
                case .created, .modified: return (Int64.fromDatabaseValue(x) ?? 0) > (Int64.fromDatabaseValue(y) ?? 0)
                }
            }
            return a.rowid > b.rowid
        }
        let offset = min(cursor?.offset ?? 0, all.count)
        let page = Array(all[offset..<min(offset + limit, all.count)])
        let end = offset + page.count
        let next = end < all.count ? page.last.map { SearchCursor(tier: $0.tier, rowid: $0.rowid, offset: end) } : nil
        return (page.map { ($0.rowid, $0.tier) }, next)
    }

    /// The zone of each notebook `query` names: a display name (exact, then folded) or a zone
    /// id in any case, as the CLI's notebook arguments; `StoreError.notFound` for none.
    static func searchZones(_ query: SearchQuery, _ db: Database) throws -> [String: String] {
        let names =
            (query.notebook.map { [$0] } ?? []) + query.excludedNotebooks + query.conditions.flatMap(\.notebooks)
        guard !names.isEmpty else { return [:] }
        let all = try notebooks(db)
        var zones: [String: String] = [:]
        for name in names where zones[name] == nil {
            if let exact = all.first(where: { $0.name == name }) {
                zones[name] = exact.zone
                continue
            }
            let lowered = name.lowercased()
            if lowered == NoteTemplate.zone || all.contains(where: { $0.zone == lowered }) {
                zones[name] = lowered
                continue
            }
            zones[name] = try notebook(named: name, in: all).zone
        }
        return zones
    }

    /// The columns a search hit is made of: the summary's, then the body, whose first
    /// `headCharacters` the snippet is looked for in. The summary's preview and body length are
    /// NULL here: `SummaryBytes` reads them from the body where it lies, as `substr` and
    /// `length(CAST(body AS BLOB))` in `summaryColumns` give them (SQLite copied the body for
    /// each hit to give them).
    static let hitColumns = SearchPlan.RowColumns(
        sql: "id, zone, title, NULL, tags, isFavorite, createdAt, modifiedAt, deletedAt, syncState, NULL, body",
        count: summaryColumnCount + 1)

    /// How much of a body its snippet is looked for in, in SQLite's characters.
    static let headCharacters = 100_000

    /// How many bytes of `text` SQLite's `substr(text, 1, characters)` keeps: a character is a
    /// byte below 0xC0, or one from 0xC0 up with the continuation bytes after it (so bytes that
    /// are not UTF-8 count as SQLite counts them). Cut here, the head is the body's own bytes,
    /// read in place: `substr` in the query scanned and copied every body (D-234). (`substr`
    /// also ended at a NUL byte; a snippet is now looked for past one.)
    static func headLength(_ text: UnsafeBufferPointer<UInt8>, characters: Int) -> Int {
        guard text.count > characters, let base = text.baseAddress else { return text.count }
        var index = 0
        var counted = 0
        let raw = UnsafeRawPointer(base)
        while index < text.count, counted < characters {
            // Eight bytes of ASCII are eight characters.
            if index + 8 <= text.count, counted + 8 <= characters,
                raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                counted += 8
                continue
            }
            let byte = text[index]
            index += 1
            if byte >= 0xC0 {
                while index < text.count, text[index] & 0xC0 == 0x80 { index += 1 }
            }
            counted += 1
        }
        return index
    }

    /// A note a search found, as its reading hands it over: the summary and the body's head,
    /// copied out of its row of `hitColumns` (the row lives only while it is read).
    struct FoundHit: Sendable {
        var tier: Int
        /// The summary's columns, made a `NoteSummary` where the hit is made.
        var summary: SummaryBytes
        /// The body's head, or only the line of its first match: what its snippet is found in.
        var head: [UInt8]

        /// - Parameter firstMatch: where the search's check found the first of the snippet's
        ///   terms in the body (nil: unknown). When the whole body is its head, only that line
        ///   is copied (a body with no term, nothing): the snippet is in the first line that
        ///   holds a term, so the line alone gives the same snippet.
        /// `row`: a row of `hitColumns`.
        init(tier: Int, _ row: CurrentRow, firstMatch: SearchPlan.FirstMatch? = nil) {
            self.tier = tier
            summary = SummaryBytes(row)
            let body = row.bytes(NoteStore.summaryColumnCount)
            let length = NoteStore.headLength(body, characters: NoteStore.headCharacters)
            switch firstMatch {
            case .line(let number) where length == body.count:
                head = Array(UnsafeBufferPointer(rebasing: body[SearchHighlighter.lineRange(number, in: body)]))
            case .nowhere where length == body.count: head = []
            default: head = Array(UnsafeBufferPointer(rebasing: body[..<length]))
            }
        }

    }

    /// Makes search hits of found notes, highlighting a query's terms.
    struct HitMaker {
        let terms: [String]
        /// Folds the lines a snippet is looked for in, hit after hit.
        var folder = TextFolding.Folder()
        /// Whether the terms' places in each title are looked for (`titleMatches`).
        var highlightsTitles = true
        /// Whether each hit's summary has its preview (else only a hit whose body gives no
        /// snippet has it, for the snippet it stands in for).
        var makesPreviews = true

        init(_ query: SearchQuery) {
            terms = SearchPlan.foldedTerms(query.highlightTerms)
        }

        /// Whether the line a search's check found its first term on is the line this maker's
        /// snippet comes from: its terms are the query's (no condition adds a word to
        /// highlight) and none holds a line feed (a snippet of such a term folds the whole body).
        func takesLineHints(of query: SearchQuery) -> Bool {
            terms == SearchPlan.foldedTerms(query.terms) && !terms.contains { $0.utf8.contains(0x0A) }
        }

        mutating func hit(_ found: FoundHit) throws -> SearchHit {
            let snippet = found.head.withUnsafeBufferPointer { head in
                SearchHighlighter.snippet(ofUTF8: head, terms: terms, folder: &folder)
            }
            // Without previews, a hit's preview is made only for the snippet it stands in for.
            let summary = try found.summary.summary(preview: makesPreviews || snippet == nil)
            let titleMatches =
                highlightsTitles ? SearchHighlighter.ranges(of: terms, in: summary.title, folder: &folder) : []
            return SearchHit(
                note: summary, tier: found.tier, titleMatches: titleMatches, snippet: snippet?.text ?? summary.snippet,
                snippetMatches: snippet?.matches ?? [])
        }
    }
}
