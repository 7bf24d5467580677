import GRDB
import NotesCore

/// The SQL for each ranking tier of one search (DESIGN §5; see SearchIndex for the tables).
///
/// Every positive term gets, when it pays, an FTS5 expression that matches exactly the notes
/// containing it:
/// - three or more scalars: the term as a trigram phrase;
/// - one or two scalars, when rare: the OR of every indexed trigram that starts with it, read
///   from the `note_fts_vocab` table. Indexed text ends in two sentinels, so every occurrence,
///   even at the very end, starts a trigram;
/// - one or two scalars, when common: no expression; the tiers scan newest first and check
///   `instr`, which finds a page of a common term within the first few hundred rows.
/// "Common" is measured, not guessed: the term is looked for in the newest notes first.
struct SearchPlan {
    /// Folded, deduplicated positive terms.
    let terms: [String]
    /// For each positive term, its exact FTS5 expression, or nil to check it with `instr`.
    private(set) var expressions: [String?] = []
    let excluded: [String]
    let filter: (text: String, arguments: [DatabaseValueConvertible])?
    /// A term occurs in no note at all.
    private(set) var matchesNothing = false

    /// How many of the newest notes the rarity probe of a short term reads.
    static let probeWindow = 2000
    /// A short term with more hits than this in the probe window is common.
    static let commonHits = 50
    /// More trigram continuations than this and a short term is searched with `instr`.
    static let maxContinuations = 400

    init(_ query: SearchQuery, _ db: Database) throws {
        func folded(_ list: [String]) -> [String] {
            var seen = Set<String>()
            return list.map { TextFolding.fold($0).replacingOccurrences(of: SearchIndex.sentinel, with: "") }
                .filter { !$0.isEmpty && seen.insert($0).inserted }
        }
        terms = folded(query.terms)
        excluded = folded(query.excludedTerms)
        filter = Self.filterClause(query)
        var probeFloor: Int64??
        for term in terms {
            if term.unicodeScalars.count >= 3 {
                expressions.append(Self.quoted(term))
                continue
            }
            if probeFloor == nil {
                probeFloor = .some(
                    try Int64.fetchOne(
                        db, sql: "SELECT rowid FROM search_title ORDER BY rowid DESC LIMIT 1 OFFSET ?",
                        arguments: [Self.probeWindow - 1]))
            }
            switch try Self.shortTermExpression(term, probeFloor: probeFloor!, db) {
            case .none: matchesNothing = true
            case .some(let expression): expressions.append(expression)
            }
        }
    }

    /// nil: the term occurs nowhere; .some(nil): check it with instr; .some(expr): use expr.
    private static func shortTermExpression(_ term: String, probeFloor: Int64?, _ db: Database) throws -> String?? {
        if let probeFloor {
            let recentHits =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM (
                            SELECT 1 FROM note_fts f WHERE f.rowid >= ?1
                            AND (instr(f.title, ?2) > 0 OR instr(f.body, ?2) > 0 OR instr(f.tags, ?2) > 0)
                            LIMIT ?3)
                        """,
                    arguments: [probeFloor, term, commonHits]) ?? 0
            if recentHits >= commonHits { return .some(nil) }
        }
        var continuations: [String] = []
        let rows = try String.fetchCursor(
            db.cachedStatement(sql: "SELECT term FROM note_fts_vocab WHERE term >= ? AND term < ?"),
            arguments: [term, term + "\u{10FFFF}"])
        while let trigram = try rows.next() {
            // By scalar: String.hasPrefix compares Characters, and "👍🏽" or the Hangul syllable
            // "한" (jamo) do not start with the Character "👍" or "하" although their scalars do.
            guard trigram.unicodeScalars.starts(with: term.unicodeScalars) else { continue }
            continuations.append(quoted(trigram))
            if continuations.count > maxContinuations { return .some(nil) }
        }
        if continuations.isEmpty { return nil }
        return .some("(" + continuations.joined(separator: " OR ") + ")")
    }

    private static func filterClause(_ query: SearchQuery) -> (text: String, arguments: [DatabaseValueConvertible])? {
        var conditions: [String] = []
        var arguments: [DatabaseValueConvertible] = []
        if query.favoritesOnly { conditions.append("isFavorite = 1") }
        if query.excludesFavorites { conditions.append("isFavorite = 0") }
        for notebook in query.excludedNotebooks {
            conditions.append("zone <> ?")
            arguments.append(notebook)
        }
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
        guard !conditions.isEmpty else { return nil }
        return (
            "st.rowid IN (SELECT searchRowid FROM note WHERE searchRowid IS NOT NULL AND "
                + conditions.joined(separator: " AND ") + ")", arguments
        )
    }

    static func quoted(_ term: String) -> String { "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// The statement for `tier`, ending in `LIMIT ?`; nil when the tier cannot have results.
    func sql(tier: Int, after: Int64?) -> (text: String, arguments: StatementArguments)? {
        if tier == 1 && terms.count < 2 { return nil }
        if tier == 0 && terms.isEmpty { return nil }
        var match: [String] = []
        var conditions: [String] = []
        var arguments: [DatabaseValueConvertible] = []
        let titleHits = terms.map { _ in "(instr(st.title, ?) > 0)" }.joined(separator: " + ")
        // Tier 0 (every term in the title) asks the index for one term only, the longest (the
        // likeliest to be rare), and checks the others in the title with instr: a title filter
        // on several trigram phrases reads every position of every note that has any of them
        // (~30 ms for two common words at 100k notes, ~15 ms this way).
        let indexedInTitle =
            tier == 0
            ? zip(terms, expressions).filter { $0.1 != nil }
                .max { $0.0.unicodeScalars.count < $1.0.unicodeScalars.count }?.0 : nil

        for (term, expression) in zip(terms, expressions) {
            switch (tier, expression) {
            case (0, .some(let e)) where term == indexedInTitle:
                match.append("title : " + e)
            case (0, _):
                conditions.append("instr(st.title, ?) > 0")
                arguments.append(term)
            case (_, .some(let e)):
                match.append(e)
            case (_, .none):
                conditions.append("(instr(st.title, ?) > 0 OR instr(f.body, ?) > 0 OR instr(f.tags, ?) > 0)")
                arguments += [term, term, term]
            }
        }
        if tier == 1 {
            conditions.append("(\(titleHits)) BETWEEN 1 AND \(terms.count - 1)")
            arguments += terms
        } else if tier == 2 && !terms.isEmpty {
            let inTitle = expressions.compactMap { $0.map { "title : " + $0 } }
            if !match.isEmpty && !inTitle.isEmpty {
                // Let the index drop title hits before any row is read.
                match = ["(" + match.joined(separator: " AND ") + ") NOT (" + inTitle.joined(separator: " OR ") + ")"]
            }
            conditions.append("(\(titleHits)) = 0")
            arguments += terms
        }
        for term in excluded {
            if !match.isEmpty && term.unicodeScalars.count >= 3 {
                match = ["(" + match.joined(separator: " AND ") + ") NOT " + Self.quoted(term)]
            } else {
                conditions.append("instr(st.title, ?) = 0 AND instr(f.body, ?) = 0 AND instr(f.tags, ?) = 0")
                arguments += [term, term, term]
            }
        }
        if let filter {
            conditions.append(filter.text)
            arguments += filter.arguments
        }
        // Order by the rowid of the table that drives the loop: ordering by the other one's
        // (equal) rowid makes SQLite sort every match instead of stopping at the limit.
        let from: String
        let key: String
        var allArguments: [DatabaseValueConvertible] = []
        if match.isEmpty {
            from = "search_title st CROSS JOIN note_fts f ON f.rowid = st.rowid"
            key = "st.rowid"
        } else {
            from = "note_fts f CROSS JOIN search_title st ON st.rowid = f.rowid"
            key = "f.rowid"
            conditions.insert("note_fts MATCH ?", at: 0)
            allArguments.append(match.joined(separator: " AND "))
        }
        if let after {
            conditions.append("\(key) < ?")
            arguments.append(after)
        }
        allArguments += arguments
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return (
            "SELECT \(key) FROM \(from)\(whereClause) ORDER BY \(key) DESC LIMIT ?", StatementArguments(allArguments)
        )
    }
}
