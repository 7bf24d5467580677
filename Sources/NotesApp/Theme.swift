import NotesCore
import TerminalUI

/// The styles `view` uses, by meaning (a configurable theme comes later).
enum Theme {
    static let header = Style().bold()
    static let selected = Style().reverse()
    /// The selection while another pane has focus.
    static let selectedUnfocused = Style().underline()
    static let favorite = Style().foreground(.yellow)
    static let placeholder = Style().dim()
    static let statusBar = Style().reverse()
    static let hint = Style().dim()

    static func mark(_ state: Note.SyncState) -> (glyph: String, style: Style) {
        switch state {
        case .synced: ("✓", Style().foreground(.green))
        case .pending: ("↻", Style().foreground(.yellow))
        case .conflict: ("⚠", Style().foreground(.red).bold())
        }
    }

    static func message(_ severity: StatusMessage.Severity) -> Style {
        switch severity {
        case .info: statusBar
        case .warning: statusBar.foreground(.yellow)
        case .error: statusBar.foreground(.red).bold()
        }
    }
}
