extension AppState {
    /// What takes the keys: the list, the search field, the editor pane, or an overlay that
    /// carries its own state, so an overlay's state exists exactly while it is open.
    ///
    /// The open note is not here: it stays in the editor pane (`AppState.editor`) while the
    /// list or an overlay has the keys. The passphrase dialog and the question about links sit
    /// over any of these and keep it as it is (`AppState.unlock`, `AppState.linkUpdate`).
    public enum Focus: Equatable, Sendable {
        case list
        case search
        /// The editor pane, on the note `AppState.editor` holds (loading or loaded: whatever
        /// closes the pane gives the keys back to the list).
        case editor
        /// The `?` help, showing its lines from `scroll` (it scrolls when the terminal is short).
        case help(scroll: Int)
        /// The history view (`h`).
        case history(HistoryState)
        /// The conflict resolver (`c`).
        case resolver(ResolverState)
        /// The Trash view (`T`).
        case trash(TrashState)
        /// The notebook or tag picker (`N`, `#`).
        case picker(PickerState)
    }
}
