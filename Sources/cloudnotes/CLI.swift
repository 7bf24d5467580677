import ArgumentParser
import CloudFolder
import Foundation
import NotesCore
import NotesStore

/// Entry point: parses the command line, runs the command and maps errors to exit codes:
/// 0 ok, 1 a user error (one line on stderr), 2 an internal error.
enum CLI {
    static func main() {
        // `--version` alone is answered before the parser builds the command tree (it reflects
        // over the commands' properties at the cost of the runtime's conformance scans): the same
        // line ArgumentParser prints, at the start of a C tool (issue 27).
        if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--version" {
            print(CloudNotes.version)
            return
        }
        do {
            try Input.checkArguments()
            if let launch = TUI.launchedAlone(Array(CommandLine.arguments.dropFirst())) {
                try TUI.open(configPath: launch.configPath, dataDirectory: launch.dataDirectory)
                return
            }
            var command = try CloudNotes.parseAsRoot(
                GlobalOptions.movedAfterCommand(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch let error as CLIError {
            fail(error.message, code: error.exitCode)
        } catch let error as StoreError {
            var message = error.message
            if error.code == .ambiguous {
                message +=
                    ":\n"
                    + error.candidates.map { "  " + Format.row($0, width: 72, styled: false) }.joined(separator: "\n")
            }
            fail(message, code: 1)
        } catch let error as ConfigError {
            fail(error.description, code: 1)
        } catch let error as CloudError {
            // The cloud folder's problem in the user's words; the code is for --json and debug.
            fail(error.userMessage, code: error.code == .internalError ? 2 : 1)
        } catch {
            let code = CloudNotes.exitCode(for: error)
            if code == .success {
                CloudNotes.exit(withError: error)
            } else if code == .validationFailure || error is ValidationError {
                fail(usageMessage(for: error), code: 1)
            } else if let exitCode = error as? ExitCode {
                exit(exitCode.rawValue)
            } else {
                fail("internal error: \(error)", code: 2)
            }
        }
    }

    static func fail(_ message: String, code: Int32) -> Never {
        let safe = message.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalSafeText.sanitize(String($0)) }.joined(separator: "\n")
        Output.error("cloudnotes: " + safe)
        exit(code)
    }

    /// A command-line mistake in one line, with where to read more (the full usage is in --help).
    static func usageMessage(for error: Error) -> String {
        let message = CloudNotes.message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
        let names = CloudNotes.configuration.subcommands.map { $0._commandName }
        let command = CommandLine.arguments.dropFirst().first { names.contains($0) }
        return message + " (see 'cloudnotes \(command.map { $0 + " " } ?? "")--help')"
    }
}

/// A user error with its message; exit code 1 unless said otherwise.
struct CLIError: Error {
    var message: String
    var exitCode: Int32 = 1
    init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }
}

struct CloudNotes: ParsableCommand {
    /// What `cloudnotes --version` prints; raised by hand with each release.
    static let version = "0.28.0"

    /// Every command names itself (`commandName`): ArgumentParser's command tree reads each
    /// command's name on every start, and a name it has to derive from the type costs
    /// `String(describing:)` of the type, whose conformance lookups each scan all of the runtime's
    /// conformance records (13% of a `search`'s CPU in a debug build; issue 27).
    static let configuration = CommandConfiguration(
        commandName: "cloudnotes",
        abstract: "Terminal notes with search as you type and folder sync.",
        discussion: """
            With no command, opens the full-screen app on a terminal, and prints the list (as `list`) when \
            stdin or stdout is not a terminal, so scripts keep working.
            Notes are addressed by full id, a unique id prefix, or an exact title.
            Exit codes: 0 ok, 1 user error (a message on stderr), 2 internal error.
            Every command takes --config FILE and --data-dir DIR, before or after its name.
            """,
        version: version,
        subcommands: [
            Add.self, List.self, Show.self, Edit.self, Search.self, Fav.self, Unfav.self, Tag.self,
            Remove.self, Restore.self, Purge.self, History.self, Attach.self, Attachments.self, AttachmentCommand.self,
            Detach.self, Export.self, Publish.self, Import.self, Files.self, ConfigCommand.self,
            Sync.self, Status.self, Conflicts.self, Resolve.self, Debug.self, Notebooks.self, NotebookCommand.self,
            Move.self, Tags.self, Links.self, Backlinks.self, Rename.self, Today.self, Todo.self, Share.self,
            Views.self, ViewCommand.self, Compact.self,
            TUI.self,
        ],
        defaultSubcommand: TUI.self
    )
}

/// Options every command takes, before or after the command's name.
struct GlobalOptions: ParsableArguments {
    static let names = ["--config", "--data-dir"]

    /// `arguments` with the global options written before the command's name moved to the end
    /// (before a `--`), where the command's own `@OptionGroup` reads them: `cloudnotes --data-dir X
    /// sync` runs as `cloudnotes sync --data-dir X`. Arguments without a command are left as they are
    /// (the default command, the app, takes them there).
    static func movedAfterCommand(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if names.contains(where: { argument.hasPrefix($0 + "=") }) {
                leading.append(argument)
                index += 1
            } else if names.contains(argument), index + 1 < arguments.count {
                leading += arguments[index...(index + 1)]
                index += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count else { return arguments }
        // The commands' names only now: a command without a `commandName` gets it from
        // `String(describing:)` of its type, whose conformance lookups cost a scan of the runtime's
        // conformance records each, a third of the start of every command (issue 27).
        let commands = Set(
            CloudNotes.configuration.subcommands.flatMap { [$0._commandName] + $0.configuration.aliases })
        guard commands.contains(arguments[index]) else { return arguments }
        var rest = Array(arguments[index...])
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: leading, at: end)
        return rest
    }

    @Option(
        name: .customLong("config"),
        help: "Config file (else $CLOUDNOTES_CONFIG, else $XDG_CONFIG_HOME/cloudnotes/config.json).")
    var configPath: String?

    @Option(name: .customLong("data-dir"), help: "Data directory (overrides the config); one per device.")
    var dataDirectory: String?

    func validate() throws {
        // An empty path would mean the current directory, which opening the store chmods to 0700.
        if dataDirectory?.isEmpty == true { throw ValidationError("--data-dir needs a path") }
        if configPath?.isEmpty == true { throw ValidationError("--config needs a path") }
    }
}
