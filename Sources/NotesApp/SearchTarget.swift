/// Where the selection is heading in search results that are not all loaded yet
/// (`AppState.searchWanted`): a row by its index, or a row counted back from the last one,
/// which only a complete answer can place.
public enum SearchTarget: Equatable, Sendable {
    case row(Int)
    /// `less` rows before the last result (`G`: 0; `k` after `G`: 1).
    case fromEnd(less: Int)
}
