import Foundation

/// One condition of a search (ARCHITECTURE §5): a word or operator of the query language, or
/// conditions joined by AND, OR and NOT.
///
/// `SearchQuery` keeps the plain words and the older operators of its top level in its own
/// fields (the index and the ranking use them); everything else (OR, groups, dates, `title:`,
/// `has:attachment`, `has:conflict`, a negated group) is a `SearchExpression`.
public indirect enum SearchExpression: Sendable, Equatable {
    /// A substring of the title, body or a tag (compared folded).
    case term(String)
    /// A substring of the title (`title:word`).
    case title(String)
    /// A tag, whole and folded (`tag:work`).
    case tag(String)
    /// A favorite (`is:fav`).
    case favorite
    /// In a notebook, named or by id, as typed (`in:Work`); the store resolves it.
    case notebook(String)
    /// Has an open task (`has:todo`).
    case openTasks
    /// Has an attachment (`has:attachment`).
    case attachment
    /// Is flagged in conflict (`has:conflict`).
    case conflict
    /// Created or modified within a span (`created:2025-01`, `modified:<7d`).
    case date(SearchDateFilter)
    case not(SearchExpression)
    /// Every one holds (words side by side, or a group in parentheses).
    case all([SearchExpression])
    /// At least one holds (`OR`).
    case any([SearchExpression])

    /// The words a match of this condition may show, to highlight: those not under a NOT.
    public var highlightTerms: [String] {
        switch self {
        case .term(let text), .title(let text): return [text]
        case .all(let parts), .any(let parts): return parts.flatMap(\.highlightTerms)
        case .not, .tag, .favorite, .notebook, .openTasks, .attachment, .conflict, .date: return []
        }
    }

    /// The notebooks this condition names, as typed.
    public var notebooks: [String] {
        switch self {
        case .notebook(let name): return [name]
        case .not(let inner): return inner.notebooks
        case .all(let parts), .any(let parts): return parts.flatMap(\.notebooks)
        default: return []
        }
    }
}
