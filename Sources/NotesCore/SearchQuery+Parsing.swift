import Foundation

/// The query language (ARCHITECTURE §5), read leniently: whatever is typed is a query.
///
///     query  = and { "OR" and }        AND binds tighter: `a b OR c` is `(a b) OR c`
///     and    = { unit }
///     unit   = [ "-" ] ( "(" query ")" | "\"" phrase "\"" | key ":" value | word )
///
/// `OR` is an operator only in capitals and between two units; `(` opens a group at the start
/// of a word; `)` closes one only while one is open (else it is part of the word); a group left
/// open at the end is closed there. A value may be quoted: `in:"Work stuff"`.
extension SearchQuery {
    public init(parsing text: String) {
        var parser = Parser(text)
        let parsed = parser.expression()
        self.init()
        hints = parser.hints
        sort = parser.sort
        absorb(parsed)
    }

    /// Puts a parsed expression into the fields: a conjunction's plain words and older
    /// operators go to their fields, the rest to `conditions`.
    private mutating func absorb(_ expression: SearchExpression) {
        switch expression {
        case .all(let parts): for part in parts { absorb(part) }
        case .term(let text): terms.append(text)
        case .tag(let tag): tags.append(tag)
        case .favorite: favoritesOnly = true
        // A second notebook or task condition is one more condition, not a replacement.
        case .notebook(let name) where notebook == nil: notebook = name
        case .openTasks where openTasks == nil: openTasks = true
        case .not(.term(let text)): excludedTerms.append(text)
        case .not(.tag(let tag)): excludedTags.append(tag)
        case .not(.favorite): excludesFavorites = true
        case .not(.notebook(let name)): excludedNotebooks.append(name)
        case .not(.openTasks) where openTasks == nil: openTasks = false
        default: conditions.append(expression)
        }
    }
}

/// A recursive-descent reader of the grammar above; collects `sort:` and hints on the way.
private struct Parser {
    let text: String
    var index: String.Index
    var depth = 0
    var sort: SearchQuery.Sort?
    var hints: [SearchHint] = []

    init(_ text: String) {
        self.text = text
        index = text.startIndex
    }

    /// query = and { "OR" and }
    mutating func expression() -> SearchExpression {
        var alternatives: [SearchExpression] = []
        while true {
            let conjunction = conjunction()
            if conjunction != .all([]) { alternatives.append(conjunction) }
            guard takeOr() else { break }
        }
        return alternatives.count == 1 ? alternatives[0] : (alternatives.isEmpty ? .all([]) : .any(alternatives))
    }

    /// and = { unit }, up to `OR`, a closing `)` of an open group, or the end.
    mutating func conjunction() -> SearchExpression {
        var parts: [SearchExpression] = []
        while true {
            skipSpaces()
            guard index < text.endIndex else { break }
            if depth > 0, text[index] == ")" { break }
            if peekOr() { break }
            if let unit = unit() { parts.append(unit) }
        }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    mutating func unit() -> SearchExpression? {
        var negated = false
        if text[index] == "-", let next = text.index(index, offsetBy: 1, limitedBy: text.endIndex),
            next < text.endIndex, !text[next].isWhitespace
        {
            negated = true
            index = next
        }
        let inner: SearchExpression?
        if text[index] == "(" {
            index = text.index(after: index)
            depth += 1
            let group = expression()
            skipSpaces()
            if index < text.endIndex, text[index] == ")" { index = text.index(after: index) }
            depth -= 1
            inner = group == .all([]) ? nil : group
        } else if text[index] == "\"" {
            let phrase = quoted()
            inner = phrase.isEmpty ? nil : .term(phrase)
        } else {
            inner = word(negated: negated)
        }
        // `sort:` is no condition; a group of nothing is none.
        guard let inner, inner != .all([]) else { return nil }
        return negated ? .not(inner) : inner
    }

    /// A word or `key:value` (the value possibly quoted); trailing `)`s close open groups.
    mutating func word(negated: Bool) -> SearchExpression? {
        let start = index
        var value: String?
        var key: Substring?
        while index < text.endIndex, !text[index].isWhitespace {
            if text[index] == ":", key == nil {
                key = text[start..<index]
                let next = text.index(after: index)
                if next < text.endIndex, text[next] == "\"" {
                    index = next
                    value = quoted()
                    break
                }
            }
            index = text.index(after: index)
        }
        var token = text[start..<index]
        if value == nil {
            // `)` ends the word while a group is open: `(a OR b)`.
            var closing = 0
            while depth - closing > 0, token.last == ")", token.count > 1 {
                token = token.dropLast()
                closing += 1
            }
            index = text.index(index, offsetBy: -closing)
        }
        // A lone `-` is an exclusion still being typed; `"-"` searches for a dash.
        if token == "-" && !negated { return nil }
        if let key, !key.isEmpty {
            let raw = value ?? String(token[token.index(after: key.endIndex)...])
            if let parsed = op(key: key.lowercased(), value: raw, negated: negated, whole: String(token)) {
                return parsed
            }
        }
        return .term(String(token))
    }

    /// What `key:value` means, or nil for a plain word (with a hint when it looks like a mistake).
    mutating func op(key: String, value: String, negated: Bool, whole: String) -> SearchExpression? {
        guard !value.isEmpty else { return nil }
        let folded = value.lowercased()
        switch key {
        case "tag": return .tag(value)
        case "in": return .notebook(value)
        case "title": return .title(value)
        case "is":
            if ["fav", "favorite", "favourite", "starred"].contains(folded) { return .favorite }
            hints.append(SearchHint(word: whole, advice: "is: takes fav"))
        case "has":
            switch folded {
            case "todo", "task", "tasks": return .openTasks
            case "attachment", "attachments", "file": return .attachment
            case "conflict", "conflicts": return .conflict
            default: hints.append(SearchHint(word: whole, advice: "has: takes attachment, conflict or todo"))
            }
        case "created", "modified":
            let field = SearchDateFilter.Field(rawValue: key) ?? .created
            if let filter = SearchDateFilter(field: field, value: value) { return .date(filter) }
            hints.append(
                SearchHint(
                    word: whole,
                    advice: "\(key): takes a date (\(key):2025-01-03, \(key):>2025-01, \(key):2025-01..2025-03, "
                        + "\(key):<7d, \(key):today)"))
        case "sort":
            if !negated, let order = SearchQuery.Sort(rawValue: folded) {
                sort = order
                return .all([])
            }
            hints.append(SearchHint(word: whole, advice: "sort: takes created, modified or title"))
        default:
            if let nearest = SearchQuery.nearestOperator(to: key) {
                hints.append(SearchHint(word: whole, advice: "did you mean \(nearest):?"))
            }
        }
        return nil
    }

    /// The text up to the next `"` (or the end), from the opening quote at `index`.
    mutating func quoted() -> String {
        let start = text.index(after: index)
        let end = text[start...].firstIndex(of: "\"") ?? text.endIndex
        index = end < text.endIndex ? text.index(after: end) : end
        return String(text[start..<end])
    }

    mutating func skipSpaces() {
        while index < text.endIndex, text[index].isWhitespace { index = text.index(after: index) }
    }

    /// Whether `OR` (a word of its own) is next.
    mutating func peekOr() -> Bool {
        guard text[index...].hasPrefix("OR") else { return false }
        let after = text.index(index, offsetBy: 2)
        return after == text.endIndex || text[after].isWhitespace || (depth > 0 && text[after] == ")")
    }

    /// Consumes `OR` when it is next.
    mutating func takeOr() -> Bool {
        skipSpaces()
        guard index < text.endIndex, peekOr() else { return false }
        index = text.index(index, offsetBy: 2)
        return true
    }
}
