/// A saved search marked to notify (`cloudnotes view notify NAME`) and how many of its notes
/// started or stopped matching it, or changed, since it was last shown (issue 25,
/// subscriptions); the status bar names the ones with changes.
public struct ViewNotice: Equatable, Sendable {
    public var name: String
    public var query: String
    public var count: Int

    public init(name: String, query: String, count: Int) {
        self.name = name
        self.query = query
        self.count = count
    }
}

extension AppState {
    /// The query of the saved search the list shows now, if it shows search results.
    var shownQuery: String? { searchResults == nil ? nil : searchText }

    /// The counts arrived.
    mutating func viewChangesCounted(_ notices: [ViewNotice]) -> [Effect] {
        viewNotices = notices
        return []
    }

    /// Asks for the counts again after the store or the settings changed, when a view is marked
    /// (or may have just been, `always`).
    func recountViews(always: Bool = false) -> [Effect] {
        always || !viewNotices.isEmpty ? [.countViewChanges(shownQuery: shownQuery)] : []
    }

    /// Results for `query` are on screen: a marked view with changes that has this query has now
    /// been shown, and its count starts again.
    func viewShown(_ query: String) -> [Effect] {
        viewNotices.contains { $0.query == query && $0.count > 0 } ? [.countViewChanges(shownQuery: query)] : []
    }
}
