import Foundation

/// How concurrent edits of one note are resolved (SYNC-FORMAT rule 8).
public enum ConflictStrategy: String, Sendable, Equatable, CaseIterable {
    case merge, serverWins, clientWins, askUser
}

/// The effective configuration: defaults overlaid with the config file.
public struct AppConfig: Sendable, Equatable {
    public var dataDirectory: String
    /// nil means local only (no cloud folder; the account status is `noAccount`).
    public var cloudFolder: String?
    public var deviceName: String
    public var conflictStrategy: ConflictStrategy
    public var syncDebounceSeconds: Double
    public var pollIntervalSeconds: Double
    /// The editor command for `edit` and the TUI's `e`; nil falls back to $VISUAL, $EDITOR, vi.
    public var editor: String?
    /// Theme role → colour name.
    public var theme: [String: String]
    /// A command that prints the passphrase of an encrypted cloud folder (e.g. `pass show
    /// cloudnotes`), used when `$CLOUDNOTES_PASSPHRASE` is not set.
    public var passphraseCommand: String? = nil
    /// Whether an encrypted folder's key is kept in the data directory (0600) once unlocked, so
    /// the app starts without asking (SYNC-FORMAT rule 14).
    public var rememberKey = true
    /// The largest note that syncs, in bytes (up to and by default 1 GB); a larger one stays
    /// on this device, said in `status` and the app.
    public var maxNoteBytes = 1 << 30
    /// Whether `#word`s in a note's body count as its tags in `tags` (off by default).
    public var bodyHashtags = false
    /// How long after the last keystroke the app's editor saves; Esc and quitting save at once.
    public var autosaveSeconds = 1.5
    /// The longest the app's editor waits to save while typing goes on without a pause of
    /// `autosaveSeconds`: a crash loses at most this much typing.
    public var autosaveMaxSeconds = 5.0
    /// The live notes folder (`cloudnotes files`): every note as a Markdown file there, kept in
    /// step both ways; nil when none. `files on DIR` / `files off` override it per data directory.
    public var notesFolder: String? = nil
    /// Where an `s3://` cloud folder's bucket is and its credentials (the config's `s3` section).
    public var s3 = S3Settings()

    public static let themeRoles: Set<String> = [
        "accent", "selection", "favorite", "synced", "pending", "conflict", "error", "muted", "match",
    ]
    public static let colors: Set<String> = [
        "default", "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        "brightBlack", "brightRed", "brightGreen", "brightYellow", "brightBlue", "brightMagenta",
        "brightCyan", "brightWhite",
    ]
    /// Keys earlier versions read but nothing used: a file that still has one loads, with a
    /// warning saying it is ignored (the TUI's keys are fixed; `?` lists them).
    public static let retiredKeys: Set<String> = ["keyBindings"]

    /// The embedded defaults, under the XDG base directories of `environment`.
    ///
    /// Without a home directory (`HomeDirectory`) or `$XDG_DATA_HOME` there is no default data
    /// directory (`dataDirectory` is empty: commands ask for `--data-dir`) and no cloud folder.
    public static func defaults(environment: [String: String]) -> AppConfig {
        defaults(environment: environment, home: HomeDirectory.path(environment))
    }

    /// The embedded defaults for the home directory `home` (nil: none was found).
    public static func defaults(environment: [String: String], home: String?) -> AppConfig {
        // The XDG spec: a relative path in these variables is invalid and ignored.
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home.map { $0 + "/.local/share" }
        return AppConfig(
            dataDirectory: dataHome.map { $0 + "/cloudnotes" } ?? "",
            cloudFolder: dataHome.map { $0 + "/cloudnotes-cloud" },
            deviceName: ProcessInfo.processInfo.hostName,
            conflictStrategy: .merge,
            syncDebounceSeconds: 2,
            pollIntervalSeconds: 30,
            editor: nil,
            theme: [
                "accent": "default", "selection": "default", "favorite": "yellow", "synced": "green",
                "pending": "yellow", "conflict": "red", "error": "red", "muted": "default",
                "match": "yellow",
            ])
    }
}
