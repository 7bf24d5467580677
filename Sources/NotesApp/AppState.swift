import Foundation
import NotesCore
import TerminalUI

/// Everything the TUI shows, as a value: `update` changes it, `view` draws it.
public struct AppState: Equatable, Sendable {
    /// Which part of the screen takes keys.
    public enum Focus: Equatable, Sendable {
        case list, search, editor, help
    }

    /// The list as last loaded from the store, favorites first.
    public var favorites: [NoteRow] = []
    public var notes: [NoteRow] = []
    /// Results for `searchText` while a search is active (nil: show the whole list).
    public var searchResults: [NoteRow]?
    /// Index of the selected row among `rows` (favorites, then the others).
    public var selection = 0
    /// First list line (section headers count as lines) drawn at the top of the list pane.
    public var scrollOffset = 0
    public var focus: Focus = .list
    public var searchText = ""
    public var syncStatus: SyncStatus = .localOnly
    /// A one-line message in the status bar, shown instead of the key hints.
    public var message: StatusMessage?
    /// The note `d` sent to the trash last, which `u` brings back.
    public var undoableTrash: UUID?
    /// The clock, for relative times; advanced by `Action.tick`.
    public var now: Date
    /// The terminal size, from `Action.resize`; `update` needs it for paging and scrolling.
    public var size: Size

    public init(now: Date, size: Size = Size(width: 80, height: 24)) {
        self.now = now
        self.size = size
    }

    /// The rows on screen: search results when searching, else the loaded list.
    public var visibleRows: (favorites: [NoteRow], notes: [NoteRow]) {
        guard let results = searchResults else { return (favorites, notes) }
        return (results.filter(\.isFavorite), results.filter { !$0.isFavorite })
    }

    /// All rows in selection order: the FAVORITES section, then NOTES.
    public var rows: [NoteRow] {
        let visible = visibleRows
        return visible.favorites + visible.notes
    }

    public var selectedRow: NoteRow? {
        let all = rows
        return all.indices.contains(selection) ? all[selection] : nil
    }
}

/// A status-line message and how loudly to show it (DESIGN: errors become state, never reach `view` raw).
public struct StatusMessage: Equatable, Sendable {
    public enum Severity: Equatable, Sendable {
        case info, warning, error
    }

    public var text: String
    public var severity: Severity

    public init(_ text: String, severity: Severity = .info) {
        self.text = text
        self.severity = severity
    }
}
