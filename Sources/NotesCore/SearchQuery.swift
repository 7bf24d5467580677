import Foundation

/// A parsed search: terms that must all match, terms that must not, filters, and conditions
/// joined by OR, NOT and parentheses (ARCHITECTURE §5; the grammar is in `SearchQuery+Parsing`).
///
/// Syntax: `word`, `"exact phrase"`, `-exclude`, `-"phrase"`, `tag:work`, `-tag:work`,
/// `is:fav`, `-is:fav`, `in:notebook` (a name or id), `-in:notebook`, `has:todo`,
/// `has:attachment`, `has:conflict`, `title:word`, `created:` and `modified:` dates,
/// `A OR B`, `(A OR B) C`, `-(A OR B)`, `sort:created|modified|title`. Anything else, including
/// `foo:bar` with an unknown key, is a plain term, so typing never produces an error; an
/// operator-like word that is not one (`crated:2024`) leaves a hint in `hints`. A lone `-` (an
/// exclusion being typed) is ignored.
public struct SearchQuery: Sendable, Equatable {
    /// The order of the results: by default the ranking of §5; otherwise newest created or
    /// modified first, or by title A to Z.
    public enum Sort: String, Sendable, CaseIterable {
        case created, modified, title
    }

    /// Substrings that must each occur in the title, the body or a tag.
    public var terms: [String] = []
    /// Substrings that must occur nowhere in the note.
    public var excludedTerms: [String] = []
    /// Tags the note must carry (compared folded, whole tag).
    public var tags: [String] = []
    public var excludedTags: [String] = []
    public var favoritesOnly = false
    /// The notebook the note must be in, as typed: a zone id or a notebook's name.
    public var notebook: String?
    /// `-is:fav`: only notes that are not favorites.
    public var excludesFavorites = false
    /// `-in:x`: notebooks the note must not be in.
    public var excludedNotebooks: [String] = []
    /// `has:todo` (true): the note has an open task (`- [ ]`, `TaskItem`); `-has:todo` (false):
    /// it has none.
    public var openTasks: Bool?
    /// Further conditions that must each hold: OR, groups, dates, `title:`, `has:attachment`,
    /// `has:conflict`.
    public var conditions: [SearchExpression] = []
    /// `sort:`; nil keeps the ranking.
    public var sort: Sort?
    /// The words that look like an operator but are not one, with what was likely meant.
    public var hints: [SearchHint] = []

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
            && openTasks == nil && conditions.isEmpty
    }

    /// The words to highlight in a hit: the terms, and those of the conditions not under a NOT.
    public var highlightTerms: [String] { terms + conditions.flatMap(\.highlightTerms) }
}
