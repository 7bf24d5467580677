import Foundation

/// Work `update` asks the runtime to do: plain data, so tests compare it by value.
public enum Effect: Equatable, Sendable {
    /// Load `limit` list rows from `offset` (the visible window plus a margin).
    case loadList(offset: Int, limit: Int)
    /// Search for `query`; the answer comes back as `Action.searchResults`.
    case search(query: String, limit: Int)
    case createNote
    case toggleFavorite(UUID)
    case trash(UUID)
    case undoTrash(UUID)
    case openExternalEditor(UUID)
    case syncNow
    case quit
}
