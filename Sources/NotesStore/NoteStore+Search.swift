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
    /// Searches with ARCHITECTURE §5 semantics: every term a case- and diacritic-insensitive substring
    /// of the title, body or a tag; ranked by tier (all terms in the title, some, none), then by
    /// recency. Trashed notes are not searched.
    ///
    /// Each tier walks its candidates in recency order (searchRowid descending) and stops at
    /// `limit`: nothing is scored or sorted. `SearchPlan` decides per term whether the trigram
    /// index or a scan of the newest notes finds it faster.
    public func search(_ query: SearchQuery, limit: Int = 50, after cursor: SearchCursor? = nil) throws -> SearchPage {
        try read { db in
            var plan = try SearchPlan(query, segments: segmentCache.segments(db), db)
            var rowids: [(Int64, Int)] = []
            var tier = cursor?.tier ?? 0
            var after = cursor?.rowid
            // One row more than the page shows tells whether another page exists.
            while tier <= 2, rowids.count <= limit {
                let found = try plan.find(tier: tier, after: after, limit: limit + 1 - rowids.count, db)
                rowids += found.map { ($0, tier) }
                if rowids.count > limit { break }
                tier += 1
                after = nil
            }
            var next: SearchCursor?
            if rowids.count > limit {
                rowids.removeLast(rowids.count - limit)
                next = rowids.last.map { SearchCursor(tier: $0.1, rowid: $0.0) }
            }
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
        return try rowids.compactMap { rowid, tier in
            guard let row = byRowid[rowid] else { return nil }
            let summary = try Self.summary(from: row)
            let head: String = row["head"]
            let titleMatches = SearchHighlighter.ranges(of: plan.terms, in: summary.title)
            if let snippet = SearchHighlighter.snippet(of: head, terms: plan.terms) {
                return SearchHit(
                    note: summary, tier: tier, titleMatches: titleMatches, snippet: snippet.text,
                    snippetMatches: snippet.matches)
            }
            return SearchHit(
                note: summary, tier: tier, titleMatches: titleMatches, snippet: summary.snippet, snippetMatches: [])
        }
    }
}
