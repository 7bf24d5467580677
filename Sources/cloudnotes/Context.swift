import Foundation
import NotesCore
import NotesStore

/// What a command runs with: the effective config, the open store and the output streams.
struct Context {
    let loaded: LoadedConfig
    let dataDirectory: String
    let environment: [String: String]

    var config: AppConfig { loaded.config }

    /// Loads the config (its warnings go to stderr).
    init(_ global: GlobalOptions) throws {
        environment = ProcessInfo.processInfo.environment
        loaded = try ConfigLoader.load(explicitPath: global.configPath, environment: environment)
        for warning in loaded.warnings { Output.warn(warning) }
        dataDirectory = global.dataDirectory ?? loaded.config.dataDirectory
    }

    /// Opens the store in the data directory.
    func openStore() throws -> NoteStore {
        try NoteStore(directory: URL(fileURLWithPath: dataDirectory, isDirectory: true))
    }
}

/// Writing to stdout and stderr; note text reaches a terminal only through TerminalSafeText.
enum Output {
    static let stdoutIsTerminal = isatty(STDOUT_FILENO) != 0
    static let stdinIsTerminal = isatty(STDIN_FILENO) != 0
    /// ANSI styling only on a terminal and when NO_COLOR is not set.
    static let useColor = stdoutIsTerminal && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        && ProcessInfo.processInfo.environment["TERM"] != "dumb"

    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func raw(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Note text for display: sanitized on a terminal, as stored otherwise.
    static func display(_ text: String, mode: TerminalSafeText.Mode = .line) -> String {
        stdoutIsTerminal ? TerminalSafeText.sanitize(text, mode: mode) : text
    }

    static func warn(_ text: String) {
        FileHandle.standardError.write(Data(("cloudnotes: warning: " + TerminalSafeText.sanitize(text) + "\n").utf8))
    }

    static func info(_ text: String) {
        FileHandle.standardError.write(Data((TerminalSafeText.sanitize(text) + "\n").utf8))
    }

    static func style(_ text: String, _ code: String) -> String {
        useColor ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }

    /// Pretty, sorted JSON of an Encodable value.
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        line(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
