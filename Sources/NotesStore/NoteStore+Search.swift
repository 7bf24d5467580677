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
}

public struct SearchPage: Sendable, Equatable {
    public var hits: [SearchHit]
    /// nil when there are no more results.
    public var next: SearchCursor?
}

extension NoteStore {
    /// Searches with DESIGN §5 semantics: every term a case- and diacritic-insensitive substring
    /// of the title, body or a tag; ranked by tier (all terms in the title, some, none), then by
    /// recency. Trashed notes are not searched.
    ///
    /// Each tier is one query that walks the index in recency order (searchRowid descending)
    /// and stops at `limit`: nothing is scored or sorted, so a one-letter query costs about as
    /// much as a rare word. Terms of three or more scalars use the trigram index; shorter ones
    /// are checked with `instr` on the folded text of candidate rows.
    public func search(_ query: SearchQuery, limit: Int = 50, after cursor: SearchCursor? = nil) throws -> SearchPage {
        let plan = SearchPlan(query)
        return try read { db in
            var rowids: [(Int64, Int)] = []
            var tier = cursor?.tier ?? 0
            var after = cursor?.rowid
            while tier <= 2, rowids.count < limit {
                if let sql = plan.sql(tier: tier, after: after) {
                    var args = sql.arguments
                    _ = args.append(contentsOf: [limit - rowids.count])
                    let found = try Int64.fetchAll(db, sql: sql.text, arguments: args)
                    rowids += found.map { ($0, tier) }
                    if rowids.count >= limit { break }
                }
                tier += 1
                after = nil
            }
            let next = rowids.count >= limit ? rowids.last.map { SearchCursor(tier: $0.1, rowid: $0.0) } : nil
            return SearchPage(hits: try hits(for: rowids, plan: plan, db), next: next)
        }
    }

    /// Convenience: parses `text` with the §5 syntax.
    public func search(_ text: String, limit: Int = 50, after cursor: SearchCursor? = nil) throws -> SearchPage {
        try search(SearchQuery(parsing: text), limit: limit, after: cursor)
    }

    private func hits(for rowids: [(Int64, Int)], plan: SearchPlan, _ db: Database) throws -> [SearchHit] {
        guard !rowids.isEmpty else { return [] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT \(Self.summaryColumns), substr(body, 1, 100000) AS head, searchRowid FROM note
                WHERE searchRowid IN (\(rowids.map { _ in "?" }.joined(separator: ",")))
                """,
            arguments: StatementArguments(rowids.map(\.0)))
        var byRowid: [Int64: Row] = [:]
        for row in rows { byRowid[row["searchRowid"]] = row }
        return rowids.compactMap { rowid, tier in
            guard let row = byRowid[rowid] else { return nil }
            let summary = Self.summary(from: row)
            let head: String = row["head"]
            let titleMatches = SearchHighlighter.ranges(of: plan.terms, in: summary.title)
            if let snippet = SearchHighlighter.snippet(of: head, terms: plan.terms) {
                return SearchHit(
                    note: summary, tier: tier, titleMatches: titleMatches, snippet: snippet.text,
                    snippetMatches: snippet.matches)
            }
            return SearchHit(note: summary, tier: tier, titleMatches: titleMatches, snippet: summary.snippet, snippetMatches: [])
        }
    }
}

/// The SQL for each ranking tier of one query.
struct SearchPlan {
    /// Folded, deduplicated positive terms.
    let terms: [String]
    let long: [String]
    let short: [String]
    let excludedLong: [String]
    let excludedShort: [String]
    let filter: (text: String, arguments: [DatabaseValueConvertible])?

    init(_ query: SearchQuery) {
        func folded(_ list: [String]) -> [String] {
            var seen = Set<String>()
            return list.map(TextFolding.fold).filter { !$0.isEmpty && seen.insert($0).inserted }
        }
        terms = folded(query.terms)
        long = terms.filter { $0.unicodeScalars.count >= 3 }
        short = terms.filter { $0.unicodeScalars.count < 3 }
        let excluded = folded(query.excludedTerms)
        excludedLong = excluded.filter { $0.unicodeScalars.count >= 3 }
        excludedShort = excluded.filter { $0.unicodeScalars.count < 3 }

        var conditions: [String] = []
        var arguments: [DatabaseValueConvertible] = []
        if query.favoritesOnly { conditions.append("isFavorite = 1") }
        if let notebook = query.notebook {
            conditions.append("zone = ?")
            arguments.append(notebook)
        }
        for tag in query.tags {
            conditions.append("id IN (SELECT noteID FROM note_tag WHERE foldedTag = ?)")
            arguments.append(TextFolding.fold(tag))
        }
        for tag in query.excludedTags {
            conditions.append("id NOT IN (SELECT noteID FROM note_tag WHERE foldedTag = ?)")
            arguments.append(TextFolding.fold(tag))
        }
        filter = conditions.isEmpty
            ? nil
            : ("st.rowid IN (SELECT searchRowid FROM note WHERE searchRowid IS NOT NULL AND "
                + conditions.joined(separator: " AND ") + ")", arguments)
    }

    static func quoted(_ term: String) -> String { "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// The statement for `tier`, ending in `LIMIT ?`; nil when the tier cannot have results.
    func sql(tier: Int, after: Int64?) -> (text: String, arguments: StatementArguments)? {
        if tier == 1 && terms.count < 2 { return nil }
        if tier == 0 && terms.isEmpty { return nil }
        var match: [String] = []
        var conditions: [String] = []
        var arguments: [DatabaseValueConvertible] = []

        switch tier {
        case 0:
            match += long.map { "title : " + Self.quoted($0) }
            for term in short {
                conditions.append("instr(st.title, ?) > 0")
                arguments.append(term)
            }
        default:
            match += long.map(Self.quoted)
            for term in short {
                conditions.append("(instr(st.title, ?) > 0 OR instr(f.body, ?) > 0 OR instr(f.tags, ?) > 0)")
                arguments += [term, term, term]
            }
            let hits = terms.map { _ in "(instr(st.title, ?) > 0)" }.joined(separator: " + ")
            if tier == 1 {
                conditions.append("(\(hits)) BETWEEN 1 AND \(terms.count - 1)")
                arguments += terms
            } else if !terms.isEmpty {
                if !long.isEmpty {
                    // Let the index drop title hits of the long terms before any row is read.
                    match = ["(" + match.joined(separator: " AND ") + ") NOT ("
                        + long.map { "title : " + Self.quoted($0) }.joined(separator: " OR ") + ")"]
                }
                conditions.append("(\(hits)) = 0")
                arguments += terms
            }
        }
        var matchText = match.joined(separator: " AND ")
        if !matchText.isEmpty, !excludedLong.isEmpty {
            matchText = "(" + matchText + ") NOT (" + excludedLong.map(Self.quoted).joined(separator: " OR ") + ")"
        } else if !excludedLong.isEmpty {
            conditions.append("f.rowid NOT IN (SELECT rowid FROM note_fts WHERE note_fts MATCH ?)")
            arguments.append(excludedLong.map(Self.quoted).joined(separator: " OR "))
        }
        for term in excludedShort {
            conditions.append("instr(st.title, ?) = 0 AND instr(f.body, ?) = 0 AND instr(f.tags, ?) = 0")
            arguments += [term, term, term]
        }
        if let filter {
            conditions.append(filter.text)
            arguments += filter.arguments
        }
        if let after {
            conditions.append("st.rowid < ?")
            arguments.append(after)
        }
        let from: String
        var allArguments: [DatabaseValueConvertible] = []
        if matchText.isEmpty {
            from = "search_title st CROSS JOIN note_fts f ON f.rowid = st.rowid"
        } else {
            from = "note_fts f CROSS JOIN search_title st ON st.rowid = f.rowid"
            conditions.insert("note_fts MATCH ?", at: 0)
            allArguments.append(matchText)
        }
        allArguments += arguments
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return ("SELECT st.rowid FROM \(from)\(whereClause) ORDER BY st.rowid DESC LIMIT ?", StatementArguments(allArguments))
    }
}
