import NotesCore

/// Settings that changed while the app runs (a synced `config set` from another device, or one
/// made here by the CLI), as the app applies them at once: the theme repaints, the autosave
/// delays take effect from the next edit, and `said` (who changed what) shows in the status bar.
public struct LiveSettings: Equatable, Sendable {
    public var theme: Theme
    public var autosaveDelay: Duration
    public var autosaveMaxWait: Duration
    /// One line for the status bar ("Settings changed on laptop: theme.accent"); nil: say nothing.
    public var said: String?

    public init(theme: Theme, autosaveDelay: Duration, autosaveMaxWait: Duration, said: String?) {
        self.theme = theme
        self.autosaveDelay = autosaveDelay
        self.autosaveMaxWait = autosaveMaxWait
        self.said = said
    }
}

extension AppState {
    /// `Action.settingsChanged`: the new values are in force from now on.
    mutating func settingsChanged(_ settings: LiveSettings) -> [Effect] {
        theme = settings.theme
        autosaveDelay = settings.autosaveDelay
        autosaveMaxWait = settings.autosaveMaxWait
        guard let said = settings.said else { return [] }
        return show(said)
    }
}
