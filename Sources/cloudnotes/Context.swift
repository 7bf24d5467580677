import Foundation
import NotesCore
import NotesStore

/// What a command runs with: the effective config, the open store and the output streams.
struct Context {
    let loaded: LoadedConfig
    let dataDirectory: String
    let environment: [String: String]

    var config: AppConfig { loaded.config }

    /// Loads the config with the synced settings and this device's own (`config set`) held in the
    /// data directory's store; its warnings go to stderr.
    init(_ global: GlobalOptions) throws {
        try self.init(configPath: global.configPath, dataDirectory: global.dataDirectory)
    }

    /// The same, from `--config` and `--data-dir` as given (nil: not given).
    init(configPath: String?, dataDirectory given: String?) throws {
        environment = ProcessInfo.processInfo.environment
        let file = try ConfigLoader.load(explicitPath: configPath, environment: environment)
        // The data directory never syncs, so the file (or --data-dir) says where the settings are.
        dataDirectory = given ?? file.config.dataDirectory
        var settings: SettingsState?
        if !dataDirectory.isEmpty {
            do {
                settings = try NoteStore.storedSettings(
                    directory: URL(fileURLWithPath: dataDirectory, isDirectory: true))
            } catch {
                // An unreadable store (damaged, locked, a newer build's) is said by the command's
                // own opening of it, in one line; the config file's values stand meanwhile.
                settings = nil
            }
        }
        loaded =
            settings == nil
            ? file
            : try ConfigLoader.load(explicitPath: configPath, environment: environment, settings: settings)
        for warning in loaded.warnings { Output.warn(warning) }
    }

    /// Opens the store in the data directory, which must not be inside the cloud folder: SQLite's
    /// WAL does not survive being replicated or shared (ARCHITECTURE §7). A command that only
    /// reads opens it `.read`: nothing written, no lock taken, no `fdatasync` on the way.
    func openStore(_ access: NoteStore.Access = .readWrite) throws -> NoteStore {
        guard !dataDirectory.isEmpty else {
            throw CLIError(
                "there is no default data directory: $HOME is unset or not an absolute path, and this account has no home directory; pass --data-dir DIR (or set HOME or XDG_DATA_HOME)"
            )
        }
        let directory = URL(fileURLWithPath: dataDirectory, isDirectory: true)
        if let cloudFolder = config.cloudFolder, !CloudLocation.isURL(cloudFolder),
            Self.path(directory, isInside: URL(fileURLWithPath: cloudFolder, isDirectory: true))
        {
            throw CLIError(
                "the data directory \(dataDirectory) is inside the cloud folder \(cloudFolder); the database must never live in the cloud folder"
            )
        }
        let store = try NoteStore(directory: directory, access: access)
        // A newer build's database: reads go on, and the user learns why writes will be refused.
        if let reason = store.readOnlyReason { Output.warn(reason) }
        return store
    }

    /// Whether `path` is `folder` or below it, compared by path components after resolving symlinks.
    static func path(_ path: URL, isInside folder: URL) -> Bool {
        let inner = path.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let outer = folder.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        return inner.count >= outer.count && Array(inner.prefix(outer.count)) == outer
    }
}

/// Writing to stdout and stderr; note text reaches a terminal only through TerminalSafeText.
enum Output {
    static let stdoutIsTerminal = isatty(STDOUT_FILENO) != 0
    static let stdinIsTerminal = isatty(STDIN_FILENO) != 0
    /// ANSI styling only on a terminal and when NO_COLOR is not set.
    static let useColor =
        stdoutIsTerminal && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        && ProcessInfo.processInfo.environment["TERM"] != "dumb"

    static func line(_ text: String = "") {
        raw(text + "\n")
    }

    /// Writes to stdout; a failed write (disk full, closed file) is a one-line error, not a crash.
    static func raw(_ text: String) {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
        } catch {
            CLI.fail("cannot write to standard output: \(reason(error))", code: 1)
        }
    }

    /// The POSIX reason behind a Foundation file error ("No space left on device").
    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedFailureReason ?? ns.localizedDescription
    }

    /// Note text for display: sanitized on a terminal, as stored otherwise.
    static func display(_ text: String, mode: TerminalSafeText.Mode = .line) -> String {
        stdoutIsTerminal ? TerminalSafeText.sanitize(text, mode: mode) : text
    }

    static func warn(_ text: String) {
        error("cloudnotes: warning: " + TerminalSafeText.sanitize(text))
    }

    static func info(_ text: String) {
        error(TerminalSafeText.sanitize(text))
    }

    /// Writes one line to stderr; if even that fails there is no one left to tell.
    static func error(_ line: String) {
        try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    }

    static func style(_ text: String, _ code: String) -> String {
        useColor ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }

    /// Pretty, sorted JSON of an Encodable value; on a terminal, escaped so that it is safe to show.
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        line(stdoutIsTerminal ? terminalSafeJSON(text) : text)
    }

    /// JSON with DEL, C1 controls, bidi controls and invisible format characters written as
    /// `\uXXXX` escapes. JSONEncoder escapes only C0, and these reach the terminal raw otherwise;
    /// they can only occur inside strings, where an escape means the same text.
    static func terminalSafeJSON(_ json: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            let v = scalar.value
            guard v == 0x7F || (0x80...0x9F).contains(v) || TerminalSafeText.isInvisibleFormat(scalar) else {
                out.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            }
        }
        return String(out)
    }
}
