import ArgumentParser
import Foundation
import NotesCore
import NotesStore

/// `notebooks [--json]`: every notebook with its display name, zone id and note count, and for a
/// shared one its owner and this account's role.
struct Notebooks: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notebooks",
        abstract: "List notebooks with how many notes each holds.",
        discussion:
            "A notebook is a sync zone: its id stays; its name can change (notebook rename). A shared notebook "
            + "also says who shares it and your role there (\"shared by Ana (1234 …) · read-only\", \"shared by "
            + "you\"; in --json its owner and role).")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    struct Row: Encodable {
        var id: String
        var name: String
        var count: Int
        /// A shared notebook's owner and this account's role; absent for one's own.
        var owner: String?
        var role: String?
    }

    func run() throws {
        let notebooks = try Context(global).openStore(.read).notebooks()
        if json {
            return try Output.json(
                notebooks.map {
                    Row(id: $0.zone, name: $0.name, count: $0.count, owner: $0.sharing?.owner, role: $0.sharing?.role)
                })
        }
        for notebook in notebooks {
            let id = notebook.name == notebook.zone ? "" : "  (\(notebook.zone))"
            let shared = notebook.sharing.map { "  " + Output.display($0.summary) } ?? ""
            Output.line("\(Output.display(notebook.name))\(id)  \(notebook.count)\(shared)")
        }
    }
}

/// `notebook create|rename|delete`.
struct NotebookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notebook", abstract: "Create, rename or delete a notebook.",
        subcommands: [NotebookCreate.self, NotebookRename.self, NotebookDelete.self])
}

struct NotebookCreate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create an empty notebook; its id is made from the name.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The display name.") var name: String

    func run() throws {
        let notebook = try Context(global).openStore().createNotebook(named: name)
        Output.line("created notebook \(Output.display(notebook.name)) (\(notebook.zone))")
    }
}

struct NotebookRename: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Rename a notebook; the name syncs, its id stays.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The notebook's name or id.") var old: String
    @Argument(help: "The new display name.") var new: String

    func run() throws {
        let notebook = try Context(global).openStore().renameNotebook(old, to: new)
        Output.line("renamed notebook \(notebook.zone) to \(Output.display(notebook.name))")
    }
}

struct NotebookDelete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a notebook: its notes go to the trash, and sync marks its zone deleted.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The notebook's name or id.") var name: String

    func run() throws {
        let (notebook, trashed) = try Context(global).openStore().deleteNotebook(name)
        Output.line("deleted notebook \(Output.display(notebook.name)); \(trashed) note(s) moved to the trash")
    }
}

/// `move NOTE... --notebook NAME`.
struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move notes to another notebook.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var notes: [String]
    @Option(help: "The notebook's name or id.") var notebook: String

    func run() throws {
        let store = try Context(global).openStore()
        let target = try store.notebook(named: notebook)
        for note in try store.resolveAll(notes) {
            _ = try store.move(note.id, toNotebook: target.zone)
            if Output.stdoutIsTerminal {
                Output.line("moved to \(Output.display(target.name)): \(TerminalSafeText.sanitize(note.title))")
            }
        }
    }
}

extension NoteStore {
    /// The zone a `--notebook` option names: a notebook's name or id, else the text as a new
    /// zone id (as before notebooks had names; the store checks it).
    func notebookZone(_ reference: String) throws -> String {
        do {
            return try notebook(named: reference).zone
        } catch let error as StoreError where error.code == .notFound {
            return reference
        }
    }
}
