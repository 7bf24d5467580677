import Foundation

/// A parsed search: terms that must all match, terms that must not, and filters (ARCHITECTURE §5).
///
/// Syntax: `word`, `"exact phrase"`, `-exclude`, `-"phrase"`, `tag:work`, `-tag:work`,
/// `is:fav`, `-is:fav`, `in:notebook`, `-in:notebook`. Anything else, including `foo:bar` with an unknown key, is a
/// plain term, so typing never produces an error; a lone `-` (an exclusion being typed) is
/// ignored.
public struct SearchQuery: Sendable, Equatable {
    /// Substrings that must each occur in the title, the body or a tag.
    public var terms: [String] = []
    /// Substrings that must occur nowhere in the note.
    public var excludedTerms: [String] = []
    /// Tags the note must carry (compared folded, whole tag).
    public var tags: [String] = []
    public var excludedTags: [String] = []
    public var favoritesOnly = false
    /// The notebook (zone) the note must be in.
    public var notebook: String?
    /// `-is:fav`: only notes that are not favorites.
    public var excludesFavorites = false
    /// `-in:x`: notebooks the note must not be in.
    public var excludedNotebooks: [String] = []
    /// `has:todo` (true): the note has an open task (`- [ ]`, `TaskItem`); `-has:todo` (false):
    /// it has none.
    public var openTasks: Bool?

    public init(
        terms: [String] = [], excludedTerms: [String] = [], tags: [String] = [],
        excludedTags: [String] = [], favoritesOnly: Bool = false, notebook: String? = nil
    ) {
        self.terms = terms
        self.excludedTerms = excludedTerms
        self.tags = tags
        self.excludedTags = excludedTags
        self.favoritesOnly = favoritesOnly
        self.notebook = notebook
    }

    /// True when the query selects every note (no terms and no filters).
    public var isEmpty: Bool {
        terms.isEmpty && excludedTerms.isEmpty && tags.isEmpty && excludedTags.isEmpty
            && !favoritesOnly && notebook == nil && !excludesFavorites && excludedNotebooks.isEmpty
            && openTasks == nil
    }

    public init(parsing text: String) {
        var index = text.startIndex
        while index < text.endIndex {
            let ch = text[index]
            if ch.isWhitespace {
                index = text.index(after: index)
                continue
            }
            var negated = false
            if ch == "-", text.index(after: index) < text.endIndex,
                !text[text.index(after: index)].isWhitespace
            {
                negated = true
                index = text.index(after: index)
            }
            if text[index] == "\"" {
                let start = text.index(after: index)
                let end = text[start...].firstIndex(of: "\"") ?? text.endIndex
                let phrase = String(text[start..<end])
                index = end < text.endIndex ? text.index(after: end) : end
                if !phrase.isEmpty { add(term: phrase, negated: negated) }
                continue
            }
            let end = text[index...].firstIndex(where: \.isWhitespace) ?? text.endIndex
            let token = String(text[index..<end])
            index = end
            apply(token: token, negated: negated)
        }
    }

    private mutating func apply(token: String, negated: Bool) {
        // A lone `-` is an exclusion still being typed; `"-"` searches for a dash.
        if token == "-" && !negated { return }
        if let colon = token.firstIndex(of: ":") {
            let key = token[..<colon].lowercased()
            let value = String(token[token.index(after: colon)...])
            switch (key, value.isEmpty) {
            case ("tag", false):
                if negated { excludedTags.append(value) } else { tags.append(value) }
                return
            case ("is", false) where ["fav", "favorite", "favourite", "starred"].contains(value.lowercased()):
                if negated { excludesFavorites = true } else { favoritesOnly = true }
                return
            case ("has", false) where ["todo", "task", "tasks"].contains(value.lowercased()):
                openTasks = !negated
                return
            case ("in", false):
                // Notebook ids are lowercase (SYNC-FORMAT), so `in:Work` means the notebook "work".
                if negated { excludedNotebooks.append(value.lowercased()) } else { notebook = value.lowercased() }
                return
            default: break
            }
        }
        add(term: token, negated: negated)
    }

    private mutating func add(term: String, negated: Bool) {
        if negated { excludedTerms.append(term) } else { terms.append(term) }
    }
}
