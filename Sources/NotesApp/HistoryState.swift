import Foundation

/// The history view (`h`): a note's revisions, one selected, its text previewed.
public struct HistoryState: Equatable, Sendable {
    public var noteID: UUID
    public var title: String
    /// nil while loading.
    public var entries: [HistoryEntry]?
    public var selection = 0

    init(noteID: UUID, title: String) {
        self.noteID = noteID
        self.title = title
    }

    public var selectedEntry: HistoryEntry? {
        guard let entries, entries.indices.contains(selection) else { return nil }
        return entries[selection]
    }
}
