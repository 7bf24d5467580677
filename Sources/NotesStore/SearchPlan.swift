import Foundation
import GRDB
import NotesCore
import Synchronization

/// One segment of the search index as a query sees it: its id and sorted document table.
struct SearchSegment {
    let id: Int64
    /// nil when the table does not decode (`SearchIndexDamage`): queries then scan the text.
    let docs: [Int64]?
}

/// Segments' document tables, read once each: a segment never changes after it is written,
/// and segment ids are never reused (AUTOINCREMENT), so an entry can only go stale by being
/// merged away, when it is dropped.
final class SegmentCache: Sendable {
    private let tables = Mutex<[Int64: [Int64]?]>([:])

    func segments(_ db: Database) throws -> [SearchSegment] {
        let ids = try Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM search_segment ORDER BY id"))
        var known = tables.withLock { $0 }
        var result: [SearchSegment] = []
        var changed = known.count != ids.count
        for id in ids {
            if let docs = known[id] {
                result.append(SearchSegment(id: id, docs: docs))
                continue
            }
            let blob = try Data.fetchOne(
                db.cachedStatement(sql: "SELECT docs FROM search_segment WHERE id = ?"), arguments: [id])
            // A table that does not decode is nil: the search scans the text instead (§7), and
            // `SearchIndexDamage` has the index rebuilt.
            let docs: [Int64]? = try? blob.map(SegmentDocs.decode) ?? []
            known[id] = docs
            changed = true
            result.append(SearchSegment(id: id, docs: docs))
        }
        if changed {
            let current = Set(ids)
            known = known.filter { current.contains($0.key) }
            tables.withLock { $0 = known }
        }
        return result
    }
}

/// How one search finds its notes (ARCHITECTURE §5; the tables are in `SearchIndex`).
///
/// Candidates come from the trigram index, newest first, and every one is confirmed against
/// its folded text (the note row's, folded as it is read) before it counts, so the index only
/// has to name a superset:
/// - three or more bytes (folded UTF-8): the documents that have every trigram of the term
///   (the rarest few lists are intersected; the check does the rest);
/// - one or two bytes, when rare: the union of the keys that begin with it (exact: every
///   position of indexed text starts a key);
/// - one or two bytes, when common: no candidates from the index; the text is scanned newest
///   first, which fills a page of a common term within the first few hundred notes.
/// "Common" is measured, not guessed: the term is looked for in the 2,000 newest notes first.
struct SearchPlan {
    /// Folded, deduplicated positive terms.
    let terms: [String]
    private let termBytes: [[UInt8]]
    private let excludedBytes: [[UInt8]]
    /// Per term: true when the term is scanned for rather than looked up (a common short term).
    private var scanned: [Bool] = []
    private let segments: [SearchSegment]
    /// searchRowids of the notes the query's filters (tags, notebook, favorites) allow.
    private let allowed: Set<Int64>?
    /// `has:todo` / `-has:todo`: whether a note must have an open task, read from its body.
    private let openTasks: Bool?
    /// The query's conditions that read a note's text (OR of words, `title:`), checked per
    /// candidate or, when the text is scanned, in the scan's SQL.
    private let textCondition: SearchConditionSQL?
    /// searchRowids of the templates (the `templates` notebook), which only a search in that
    /// notebook finds: a few notes, so a set beats a condition on every candidate.
    private let hidden: Set<Int64>
    /// Per key space, per segment: ascending searchRowids of the candidates (nil: no index term).
    private var candidates: [UInt32: [[Int64]]?] = [:]
    /// Folds the bodies candidates are checked in, one after another.
    private var folder = TextFolding.Folder()
    /// The notes this plan read whose title holds a term: true when it holds every one. A later
    /// tier, which could only refuse them (tier 1 those with every term, tier 2 those with any),
    /// passes over them without reading their rows again: tier 2 of a walk of every match read
    /// again each note tier 0 had read (4,748 of 77,094 notes for `wor` at 100k).
    private var titled: [Int64: Bool] = [:]

    /// How many of the newest notes the rarity probe of a short term reads.
    static let probeWindow = 2000
    /// A short term with more hits than this in the probe window is common.
    static let commonHits = 50
    /// Lists intersected per term at most; once candidates are this few the check is cheaper.
    static let maxIntersections = 4
    static let fewCandidates = 64
    /// Candidates read from the note table in one statement.
    static let candidateBatch = 64
    /// The statement's parameters: one per candidate of a batch.
    private static let batchParameters = Array(repeating: "?", count: candidateBatch).joined(separator: ",")

    /// - Parameters:
    ///   - zones: the zone of each notebook the query names (`NoteStore.searchZones`).
    ///   - now, timeZone: what relative dates count from, and where dates are read.
    init(
        _ query: SearchQuery, segments: [SearchSegment], zones: [String: String] = [:], now: Date = Date(),
        timeZone: TimeZone = .current, _ db: Database
    ) throws {
        terms = Self.foldedTerms(query.terms)
        termBytes = terms.map { Array($0.utf8) }
        excludedBytes = Self.foldedTerms(query.excludedTerms).map { Array($0.utf8) }
        self.segments = segments
        let conditions = query.conditions.map { SearchConditionSQL($0, zones: zones, now: now, timeZone: timeZone) }
        allowed = try Self.allowedRowids(query, zones: zones, conditions.filter { !$0.readsText }, db)
        let textual = conditions.filter(\.readsText)
        textCondition =
            textual.isEmpty
            ? nil
            : SearchConditionSQL(
                sql: textual.map(\.sql).joined(separator: " AND "), arguments: textual.flatMap(\.arguments),
                readsText: true)
        openTasks = query.openTasks
        let notebook = query.notebook.map { zones[$0] ?? $0 }
        hidden =
            notebook == NoteTemplate.zone
            ? []
            : Set(
                try Int64.fetchAll(
                    db, sql: "SELECT searchRowid FROM note WHERE zone = ? AND searchRowid IS NOT NULL",
                    arguments: [NoteTemplate.zone]))
        var probeFloor: Int64??
        for bytes in termBytes {
            guard bytes.count < 3 else {
                scanned.append(false)
                continue
            }
            let floor: Int64?
            if let known = probeFloor {
                floor = known
            } else {
                floor = try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT searchRowid FROM note WHERE searchRowid IS NOT NULL
                        ORDER BY searchRowid DESC LIMIT 1 OFFSET ?
                        """,
                    arguments: [Self.probeWindow - 1])
                probeFloor = .some(floor)
            }
            scanned.append(try Self.isCommon(bytes, probeFloor: floor, db))
        }
    }

    /// Query words as the index and the text hold them (`foldedTerm`), without empty ones or
    /// repeats.
    static func foldedTerms(_ list: [String]) -> [String] {
        var seen = Set<String>()
        return list.map(foldedTerm).filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// A query word as the index and the text hold it: folded, without the sentinel.
    static func foldedTerm(_ text: String) -> String {
        TextFolding.fold(text).replacingOccurrences(of: SearchIndex.sentinel, with: "")
    }

    /// Whether a short term has `commonHits` hits among the newest `probeWindow` notes.
    private static func isCommon(_ term: [UInt8], probeFloor: Int64?, _ db: Database) throws -> Bool {
        guard let probeFloor else { return false }
        let text = String(decoding: term, as: UTF8.self)
        let hits =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM (
                        SELECT 1 FROM note WHERE searchRowid >= ?1
                        AND (instr(sortTitle, ?2) > 0 OR instr(cn_search_body(body, tags), ?2) > 0)
                        LIMIT ?3)
                    """,
                arguments: [probeFloor, text, commonHits]) ?? 0
        return hits >= commonHits
    }

    /// A note with the tag given (folded).
    static let taggedCondition = "id IN (SELECT noteID FROM note_tag WHERE foldedTag = ?)"

    /// The searchRowids of the notes that meet `condition`.
    static func filteredRowidsSQL(_ condition: String) -> String {
        "SELECT searchRowid FROM note n WHERE searchRowid IS NOT NULL AND " + condition
    }

    /// The searchRowids of the notes the query's filters allow; nil when it has none.
    ///
    /// Each filter names its notes on its own, from an index that holds their searchRowids
    /// (`search-filters-1`, `search-dates-1`), and the sets are intersected here: the filters
    /// together in one statement read a row per note from the table for all but the one index
    /// SQLite took. A filter that excludes (`-tag:`, `-in:`) takes its notes away from the
    /// others', or from every note's when it is alone.
    private static func allowedRowids(
        _ query: SearchQuery, zones: [String: String], _ extra: [SearchConditionSQL], _ db: Database
    ) throws -> Set<Int64>? {
        var including: [(sql: String, arguments: [any DatabaseValueConvertible])] = extra.map {
            ($0.sql, $0.arguments)
        }
        var excluding: [(sql: String, arguments: [any DatabaseValueConvertible])] = []
        if query.favoritesOnly { including.append(("isFavorite = 1", [])) }
        if query.excludesFavorites { including.append(("isFavorite = 0", [])) }
        if let notebook = query.notebook { including.append(("zone = ?", [zones[notebook] ?? notebook])) }
        for notebook in query.excludedNotebooks { excluding.append(("zone = ?", [zones[notebook] ?? notebook])) }
        for tag in query.tags { including.append((taggedCondition, [TextFolding.fold(tag)])) }
        for tag in query.excludedTags { excluding.append((taggedCondition, [TextFolding.fold(tag)])) }
        guard !including.isEmpty || !excluding.isEmpty else { return nil }
        func rowids(_ condition: String, _ arguments: [any DatabaseValueConvertible]) throws -> [Int64] {
            try Int64.fetchAll(db, sql: filteredRowidsSQL(condition), arguments: StatementArguments(arguments))
        }
        // The smallest set first: each intersection then walks no more than it.
        var sets = try including.map { try rowids($0.sql, $0.arguments) }.sorted { $0.count < $1.count }
        if sets.isEmpty { sets = [try rowids("1", [])] }
        var allowed = Set(sets[0])
        for other in sets.dropFirst() where !allowed.isEmpty { allowed.formIntersection(other) }
        for (sql, arguments) in excluding where !allowed.isEmpty { allowed.subtract(try rowids(sql, arguments)) }
        return allowed
    }

    /// Columns a caller reads from the row of each note a search finds (`find(…reading:make:)`),
    /// selected before the three the plan checks (sort title, body, tags): the note is read once,
    /// in the step that checks it.
    struct RowColumns {
        /// SQL of the columns, separated by commas; empty for none.
        var sql: String
        var count: Int

        static let none = RowColumns(sql: "", count: 0)

        /// `sql` and then `own`, as one list of columns.
        func followed(by own: String) -> String { sql.isEmpty ? own : sql + ", " + own }
    }

    /// Up to `limit` searchRowids of `tier` (0: every term in the title; 1: some; 2: none),
    /// newest first, below `after`.
    mutating func find(tier: Int, after: Int64?, limit: Int, _ db: Database) throws -> [Int64] {
        try find(tier: tier, after: after, limit: limit, db) { $0.rowid }
    }

    /// A note `find` found, while its row is read.
    struct FoundRow {
        let rowid: Int64
        /// The note's row: its first columns are the caller's (`RowColumns`).
        let row: Row
        /// The same row's columns, read in place.
        let columns: CurrentRow
        /// Where the check found the first of the terms in the body, when it folded the body
        /// (nil: the title decided).
        let firstMatch: FirstMatch?
    }

    /// Where a found note's body first holds one of the plan's terms, as its check read it.
    enum FirstMatch: Equatable, Sendable {
        /// On this line of the body (counting from 0; lines end at a line feed).
        case line(Int)
        /// Nowhere in the body.
        case nowhere
    }

    /// What `make` makes of each of up to `limit` notes of `tier`, newest first, below `after`,
    /// given the note as it is read (its row's first columns are `extra`'s; the plan's own
    /// follow them).
    mutating func find<Found>(
        tier: Int, after: Int64?, limit: Int, reading extra: RowColumns = .none, _ db: Database,
        make: (FoundRow) throws -> Found
    ) throws -> [Found] {
        if tier == 0 && terms.isEmpty { return [] }
        if tier == 1 && terms.count < 2 { return [] }
        let space = tier == 0 ? SearchKeys.titleSpace : 0
        if candidates[space] == nil {
            // A damaged index names nothing; the text is scanned instead (ARCHITECTURE §7).
            do {
                candidates[space] = .some(try indexCandidates(space: space, db))
            } catch is SearchIndexDamage {
                candidates[space] = .some(nil)
            }
        }
        // The plan's columns: sort title, body and tags, after the caller's.
        let own = extra.count
        // A batch of candidates is read in one statement, newest first (a statement per note
        // was a tenth of a search that prints every match: GRDB names a cursor's columns anew
        // each time); a batch not full is padded with NULL, which matches nothing.
        let batchStatement = try db.cachedStatement(
            sql: """
                SELECT \(extra.followed(by: "sortTitle, body, tags, searchRowid")) FROM note
                WHERE searchRowid IN (\(Self.batchParameters))
                ORDER BY searchRowid DESC
                """)
        // Out of self while this walk folds into it.
        var folder = self.folder
        defer { self.folder = folder }
        var scratch = TermScratch(terms: termBytes.count)
        var found: [Found] = []
        // The text conditions, for one candidate (the scan below has them in its own SQL).
        let check = try textCondition.map { condition in
            try db.cachedStatement(sql: "SELECT 1 FROM note n WHERE n.searchRowid = ? AND " + condition.sql)
        }
        func consider(_ rowid: Int64, _ row: Row, _ columns: CurrentRow, checked: Bool = false) throws {
            if hidden.contains(rowid) { return }
            let (accepted, firstMatch, titleHits) = try accepts(
                tier: tier, title: columns.bytes(own), row, columns, body: own + 1, tags: own + 2, folder: &folder,
                scratch: &scratch)
            if titleHits > 0 { titled[rowid] = titleHits == terms.count }
            guard accepted else { return }
            if let check, let textCondition, !checked {
                let arguments = StatementArguments([rowid as any DatabaseValueConvertible] + textCondition.arguments)
                guard try Int.fetchOne(check, arguments: arguments) != nil else { return }
            }
            // Tasks are read in the note's own text: folding could make a box of what is none.
            if let openTasks {
                guard TaskItem.open(in: row[own + 1] ?? "").isEmpty != openTasks else { return }
            }
            found.append(try make(FoundRow(rowid: rowid, row: row, columns: columns, firstMatch: firstMatch)))
        }
        /// Reads the notes of `rowids` (descending; those with no such rowid since are left out)
        /// and considers them until `limit` are found.
        func consider(_ rowids: inout [Int64]) throws {
            guard !rowids.isEmpty else { return }
            var arguments = rowids.map { $0 as (any DatabaseValueConvertible)? }
            arguments += Array(repeating: nil, count: Self.candidateBatch - rowids.count)
            rowids.removeAll(keepingCapacity: true)
            let rows = try Row.fetchCursor(batchStatement, arguments: StatementArguments(arguments))
            let columns = CurrentRow(batchStatement)
            while found.count < limit, let row = try rows.next() {
                try consider(columns.int64(own + 3), row, columns)
            }
        }
        var batch: [Int64] = []
        batch.reserveCapacity(Self.candidateBatch)
        if let lists = candidates[space] ?? nil {
            var iterator = DescendingMerge(lists, below: after)
            while found.count < limit, let rowid = iterator.next() {
                if let allowed, !allowed.contains(rowid) { continue }
                if refusesByTitle(rowid, tier: tier) { continue }
                batch.append(rowid)
                if batch.count == Self.candidateBatch { try consider(&batch) }
            }
            try consider(&batch)
        } else if let allowed {
            var rowids = allowed.filter { rowid in after.map { rowid < $0 } ?? true }.sorted(by: >)[...]
            while found.count < limit, let rowid = rowids.popFirst() {
                if refusesByTitle(rowid, tier: tier) { continue }
                batch.append(rowid)
                if batch.count == Self.candidateBatch { try consider(&batch) }
            }
            try consider(&batch)
        } else {
            // Every note newest first, through the index of searchRowid; with the text
            // conditions in the scan's SQL when there are some.
            let condition = textCondition.map { " AND " + $0.sql } ?? ""
            let scan = try db.cachedStatement(
                sql: """
                    SELECT \(extra.followed(by: "n.sortTitle, n.body, n.tags, n.searchRowid")) FROM note n
                    WHERE n.searchRowid < ?\(condition) ORDER BY n.searchRowid DESC
                    """)
            let rows = try Row.fetchCursor(
                scan,
                arguments: StatementArguments(
                    [(after ?? Int64.max) as any DatabaseValueConvertible] + (textCondition?.arguments ?? [])))
            let columns = CurrentRow(scan)
            while found.count < limit, let row = try rows.next() {
                try consider(columns.int64(own + 3), row, columns, checked: true)
            }
        }
        return found
    }

    /// Per term, what `accepts` found in the note it checks: kept from note to note of a walk,
    /// instead of four arrays made and freed per note.
    struct TermScratch {
        /// Whether the title holds the term.
        var inTitle: [Bool]
        /// Where the body's fold holds the term first (`foldBody`).
        var firsts: [Int?]

        init(terms: Int) {
            inTitle = Array(repeating: false, count: terms)
            firsts = Array(repeating: nil, count: terms)
        }
    }

    /// Whether a note this plan read already is one `tier` refuses by its title alone.
    private func refusesByTitle(_ rowid: Int64, tier: Int) -> Bool {
        guard tier > 0, let every = titled[rowid] else { return false }
        return tier == 2 || every
    }

    /// Whether the note with this folded title, and the body and tags at these columns of
    /// `row` (read in place through `columns`), belongs to `tier` and to no excluded term; and,
    /// when the body was folded (into `folder`) because the title did not decide, the line of
    /// its first term; and how many of the terms the title holds.
    private func accepts(
        tier: Int, title: UnsafeBufferPointer<UInt8>, _ row: Row, _ columns: CurrentRow, body: Int, tags: Int,
        folder: inout TextFolding.Folder, scratch: inout TermScratch
    ) throws -> (Bool, FirstMatch?, titleHits: Int) {
        var titleHits = 0
        for (index, term) in termBytes.enumerated() {
            let hit = Self.contains(title, term)
            scratch.inTitle[index] = hit
            if hit { titleHits += 1 }
        }
        switch tier {
        case 0: if titleHits < terms.count { return (false, nil, titleHits) }
        case 1: if titleHits == 0 || titleHits == terms.count { return (false, nil, titleHits) }
        default: if titleHits > 0 { return (false, nil, titleHits) }
        }
        if excludedBytes.contains(where: { Self.contains(title, $0) }) { return (false, nil, titleHits) }
        guard titleHits < terms.count || !excludedBytes.isEmpty else { return (true, nil, titleHits) }
        Self.foldBody(
            row, columns, at: body, terms: termBytes, whole: !excludedBytes.isEmpty, into: &folder,
            firsts: &scratch.firsts)
        let bodyEnd = folder.count
        var first: Int?
        var missing = false
        for (hit, found) in zip(scratch.inTitle, scratch.firsts) {
            if let found { first = min(first ?? found, found) } else if !hit { missing = true }
        }
        let firstMatch = folder.withFolded { folded in
            first.map { first in
                FirstMatch.line(UnsafeBufferPointer(rebasing: folded[..<first]).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
            } ?? .nowhere
        }
        // Every term is in the title or the body, and none is excluded: the tags are not read.
        guard missing || !excludedBytes.isEmpty else { return (true, firstMatch, titleHits) }
        // Otherwise the body was folded whole; a missing term is looked for where the tags
        // begin (a match may start in the body's last bytes).
        Self.appendTags(row, columns, at: tags, to: &folder)
        let accepted = folder.withFolded { all in
            for (bytes, (hit, first)) in zip(termBytes, zip(scratch.inTitle, scratch.firsts)) where !hit && first == nil
            {
                let from = max(0, bodyEnd - bytes.count + 1)
                if !Self.contains(UnsafeBufferPointer(rebasing: all[from...]), bytes) { return false }
            }
            return !excludedBytes.contains { Self.contains(all, $0) }
        }
        return (accepted, firstMatch, titleHits)
    }

    /// Input bytes of a body folded before the terms are looked for in what was folded.
    static let foldBlock = 256

    /// Folds the body at `column` of `row` into `folder` (what `IndexedText.foldedBody` gives,
    /// read from SQLite's bytes in place), a block of lines at a time, until each of `terms`
    /// has been found in it (to its end when `whole`); per term, the folded offset of its first
    /// occurrence (nil: not in the body). The fold is per scalar and a block ends after a line
    /// feed, so blocks folded one after another are the fold of the whole body: a note whose
    /// term is in its first lines folds only those (the check folded every body whole, a
    /// quarter of the thread that reads a search of every match).
    static func foldBody(
        _ row: Row, _ columns: CurrentRow, at column: Int, terms: [[UInt8]], whole: Bool,
        into folder: inout TextFolding.Folder, firsts: inout [Int?]
    ) {
        for index in firsts.indices { firsts[index] = nil }
        func look(from searched: Int) {
            folder.withFolded { folded in
                for (index, term) in terms.enumerated() where firsts[index] == nil {
                    firsts[index] = ByteSearch.firstIndex(of: term, in: folded, from: max(0, searched - term.count + 1))
                }
            }
        }
        folder.removeAll()
        let bytes = columns.bytes(column)
        var folded = true
        var start = 0
        while start < bytes.count {
            var end = start + foldBlock
            if end < bytes.count, let base = bytes.baseAddress {
                end =
                    memchr(base + end, 0x0A, bytes.count - end).map {
                        base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) + 1
                    } ?? bytes.count
            } else {
                end = bytes.count
            }
            let searched = folder.count
            guard folder.append(UnsafeBufferPointer(rebasing: bytes[start..<end])) else {
                folded = false
                break
            }
            look(from: searched)
            start = end
            if !whole && !firsts.contains(nil) { break }
        }
        if !folded {
            // Not UTF-8 as stored (a damaged row): read as a String, which repairs it.
            var text: String = (row[column] as String?) ?? ""
            _ = text.withUTF8 { folder.fold($0) }
            for index in firsts.indices { firsts[index] = nil }
            look(from: 0)
        }
    }

    /// Appends the tags at `column` of `row` to `folder` as `IndexedText` folds them after the
    /// body. Plain tags are folded from the row's bytes (a `String` of each, and the array,
    /// were a tenth of the thread that reads a search's hits).
    private static func appendTags(
        _ row: Row, _ columns: CurrentRow, at column: Int, to folder: inout TextFolding.Folder
    ) {
        let appended = IndexedText.appendTags(json: columns.bytes(column), to: &folder)
        if !appended { IndexedText.appendTags(NoteStore.decodeTags(row[column] ?? "[]"), to: &folder) }
    }

    /// Per segment, the ascending searchRowids the index names for every term in `space`; nil
    /// when no term can use the index (only common short terms, or none). Throws
    /// `SearchIndexDamage` when a table or list does not decode or names a missing document.
    private func indexCandidates(space: UInt32, _ db: Database) throws -> [[Int64]]? {
        guard zip(termBytes, scanned).contains(where: { !$1 }) else { return nil }
        let point = try db.cachedStatement(sql: "SELECT docs FROM search_posting WHERE rowid = ?")
        let range = try db.cachedStatement(sql: "SELECT docs FROM search_posting WHERE rowid >= ? AND rowid < ?")
        var result: [[Int64]] = []
        for segment in segments {
            guard let docs = segment.docs else { throw SearchIndexDamage("a segment's document table") }
            var set: [UInt32]?
            for (bytes, isScanned) in zip(termBytes, scanned) where !isScanned {
                let base = segment.id << 25
                let list: [UInt32]
                if bytes.count >= 3 {
                    list = try Self.lookup(SearchKeys.keys(ofTerm: bytes, space: space), base: base, point)
                } else {
                    let keys = SearchKeys.prefixRange(ofTerm: bytes, space: space)
                    list = try Self.union(
                        Data.fetchAll(range, arguments: [base + Int64(keys.lowerBound), base + Int64(keys.upperBound)]))
                }
                let narrowed = set.map { Postings.intersect($0, list) } ?? list
                set = narrowed
                if narrowed.isEmpty { break }
            }
            guard (set?.last).map({ Int($0) < docs.count }) ?? true else {
                throw SearchIndexDamage("a posting names a document its segment does not have")
            }
            result.append((set ?? []).map { docs[Int($0)] })
        }
        return result
    }

    /// The documents that have the rarest few of `keys` (all of them, when few).
    private static func lookup(_ keys: [UInt32], base: Int64, _ statement: Statement) throws -> [UInt32] {
        var blobs: [Data] = []
        for key in keys {
            guard let blob = try Data.fetchOne(statement, arguments: [base + Int64(key)]) else { return [] }
            blobs.append(blob)
        }
        blobs.sort { $0.count < $1.count }
        var set: [UInt32]?
        var list: [UInt32] = []
        for blob in blobs.prefix(maxIntersections) {
            list.removeAll(keepingCapacity: true)
            try blob.withUnsafeBytes { try Postings.decode($0, into: &list) }
            let narrowed = set.map { Postings.intersect($0, list) } ?? list
            set = narrowed
            if narrowed.count < fewCandidates { break }
        }
        return set ?? []
    }

    private static func union(_ blobs: [Data]) throws -> [UInt32] {
        var all: [UInt32] = []
        for blob in blobs { try blob.withUnsafeBytes { try Postings.decode($0, into: &all) } }
        all.sort()
        var unique: [UInt32] = []
        unique.reserveCapacity(all.count)
        for document in all where unique.last != document { unique.append(document) }
        return unique
    }

    /// Whether `haystack` contains `needle` (`ByteSearch.firstIndex`).
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        needle.isEmpty || ByteSearch.firstIndex(of: needle, in: haystack) != nil
    }
}

/// Walks several ascending rowid lists as one descending sequence, each rowid once.
struct DescendingMerge {
    private let lists: [[Int64]]
    /// Per list, the position after the next rowid to take.
    private var ends: [Int]
    private var last: Int64?

    init(_ lists: [[Int64]], below bound: Int64?) {
        self.lists = lists
        ends = lists.map { list in bound.map { SegmentDocs.lowerBound($0, in: list) } ?? list.count }
    }

    mutating func next() -> Int64? {
        while true {
            var best = -1
            for i in lists.indices where ends[i] > 0 {
                if best < 0 || lists[i][ends[i] - 1] > lists[best][ends[best] - 1] { best = i }
            }
            guard best >= 0 else { return nil }
            ends[best] -= 1
            let rowid = lists[best][ends[best]]
            if rowid == last { continue }
            last = rowid
            return rowid
        }
    }
}
