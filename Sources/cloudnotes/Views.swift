import ArgumentParser
import Foundation
import NotesCore
import NotesStore

/// Saved searches (issue 25, "smart views"): a named query kept as a synced setting
/// (`view.<name>`), so it follows the person to every device of the account.
struct Views: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "views",
        abstract: "List the saved searches (views), which sync to every device of the account.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let settings = try Self.settings(Context(global))
        let views = settings.views
        let notifying = Set(settings.notifyingViews.map(\.name))
        if json {
            struct View: Encodable {
                var name: String
                var query: String
                var notify: Bool
            }
            return try Output.json(
                views.map { View(name: $0.name, query: $0.query, notify: notifying.contains($0.name)) })
        }
        if views.isEmpty {
            if Output.stdoutIsTerminal { Output.line("No views. Save one: cloudnotes view save NAME QUERY") }
            return
        }
        let width = min(24, views.map { $0.name.count }.max() ?? 0)
        for view in views {
            Output.line(
                Output.display(view.name).padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + Output.display(view.query) + (notifying.contains(view.name) ? "  (notify)" : ""))
        }
    }

    /// The settings held here (read-only; empty before the first `config set` or sync).
    static func settings(_ context: Context) throws -> SettingsState {
        let directory = URL(fileURLWithPath: context.dataDirectory, isDirectory: true)
        return try NoteStore.storedSettings(directory: directory) ?? SettingsState()
    }

    /// The saved search called `name`, or the error that says there is none.
    static func named(_ name: String, _ context: Context) throws -> (name: String, query: String) {
        guard let view = try settings(context).views.first(where: { $0.name == name }) else {
            throw CLIError("no view named \"\(name)\"; `cloudnotes views` lists them")
        }
        return view
    }
}

/// `cloudnotes view NAME` runs a saved search; `view save` and `view rm` change them.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view", abstract: "Run, save or remove a saved search (a view).",
        discussion: """
            Examples: `cloudnotes view save work 'tag:work -has:todo'`, `cloudnotes view work`, \
            `cloudnotes view rm work`. Views sync as settings: saved on one device, they run on every \
            device of the account after its next sync. `cloudnotes view notify work` marks one: the app's \
            status bar then counts its changes since it was last shown (`● work: 3`).
            """,
        subcommands: [ViewRun.self, ViewSave.self, ViewRemove.self, ViewWatch.self, ViewNotify.self],
        defaultSubcommand: ViewRun.self)
}

/// `cloudnotes view [run] NAME`: the notes the saved search matches now, as `search` prints them.
struct ViewRun: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a saved search.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The view's name (`cloudnotes views` lists them).") var name: String
    @Option(help: "At most this many results.") var limit: Int = 50
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try Context(global)
        let query = try Views.named(name, context).query
        try Search.run(query, store: context.openStore(.read), limit: max(1, limit), json: json)
    }
}

/// `cloudnotes view save NAME QUERY`.
struct ViewSave: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: "Save a search under a name, on every device of the account.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The view's name.") var name: String
    // Unrecognized options are query words: `-is:done` excludes, it is not a flag.
    @Argument(parsing: .allUnrecognized, help: "The query, as `search` takes it.") var query: [String]

    func validate() throws {
        if let option = query.first(where: { $0.hasPrefix("--") }) {
            throw ValidationError("unknown option '\(option)'")
        }
    }

    func run() throws {
        let text = Search.queryText(query)
        let store = try Context(global).openStore()
        do {
            try store.writeSetting(SettingKeys.viewPrefix + name, text, here: false)
        } catch let error as SettingsError {
            throw CLIError(error.message)
        }
        Output.line("saved view \(Output.display(name)): \(Output.display(text))")
    }
}

/// `cloudnotes view rm NAME`.
struct ViewRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Remove a saved search, on every device of the account.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The view's name.") var name: String

    func run() throws {
        let context = try Context(global)
        _ = try Views.named(name, context)
        let store = try context.openStore()
        try store.writeSetting(SettingKeys.viewPrefix + name, nil, here: false)
        if try store.settingsState().values[SettingKeys.notifyPrefix + name] != nil {
            try store.writeSetting(SettingKeys.notifyPrefix + name, nil, here: false)
        }
        Output.line("removed view \(Output.display(name))")
    }
}

/// `cloudnotes view notify NAME [--off]`: marks a saved search to notify, on every device of
/// the account; the app's status bar counts its changes since it was last shown.
struct ViewNotify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Mark a saved search so the app's status bar counts its changes since it was last shown.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The view's name.") var name: String
    @Flag(help: "Take the mark off.") var off = false

    func run() throws {
        let context = try Context(global)
        _ = try Views.named(name, context)
        try context.openStore().writeSetting(SettingKeys.notifyPrefix + name, off ? nil : "true", here: false)
        Output.line(
            off
                ? "view \(Output.display(name)) no longer notifies"
                : "view \(Output.display(name)) notifies: the app's status bar counts its changes since it was last shown"
        )
    }
}
