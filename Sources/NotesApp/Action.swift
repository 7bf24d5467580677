import Foundation
import NotesCore
import TerminalUI

/// Everything that can happen to the app: input from the terminal and messages from workers.
public enum Action: Equatable, Sendable {
    /// A key, paste, mouse action or resize from the terminal backend.
    case input(InputEvent)
    /// The list from the store (the window asked for by `Effect.loadList`).
    case rowsLoaded(favorites: [NoteRow], notes: [NoteRow])
    /// Results of `Effect.search` for `query`; results for an older query are ignored.
    case searchResults(query: String, rows: [NoteRow])
    case syncStatusChanged(SyncStatus)
    /// The clock moved on (relative times are redrawn).
    case tick(Date)
    case resize(Size)

    /// A plain character key, as in `.key("j")`.
    public static func key(_ character: Character) -> Action { .input(.char(character)) }
    /// A named key, as in `.key(.down)`.
    public static func key(_ key: InputEvent.Key) -> Action { .input(.key(key)) }
}
