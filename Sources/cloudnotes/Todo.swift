import ArgumentParser
import Foundation
import NotesCore
import NotesStore

/// `cloudnotes todo [QUERY]`: the open `- [ ]` items of the notes a query matches (every note
/// without one), and `todo done NOTE LINE` to tick one (issue 25, "Tasks across notes").
struct Todo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo",
        abstract: "List the open tasks (- [ ]) of the notes a search matches, or tick one.",
        discussion: """
            Each line is the note's short id, its title and the body line of the task, then the task: \
            `3f2a9c1b  Groceries:4  oat milk`. `cloudnotes todo done NOTE LINE` ticks that task, an ordinary \
            edit that syncs and merges like any other. Tasks in fenced code blocks are not tasks.
            """,
        subcommands: [TodoList.self, TodoDone.self],
        defaultSubcommand: TodoList.self)
}

struct TodoList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the open tasks of the notes QUERY matches (all notes without one).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A search, as `cloudnotes search` takes it (e.g. tag:work).") var query: [String] = []
    @Flag(help: "Print JSON.") var json = false

    struct Item: Encodable {
        var note: String
        var title: String
        var line: Int
        var text: String
    }

    func run() throws {
        let store = try Context(global).openStore(.read)
        var parsed = SearchQuery(parsing: Search.queryText(query))
        // Only notes holding a box at all are read: the index narrows to them.
        parsed.terms.append("[ ]")
        var items: [Item] = []
        var cursor: SearchCursor?
        repeat {
            let page = try store.search(parsed, limit: 500, after: cursor)
            for hit in page.hits {
                guard let note = try store.note(hit.note.id) else { continue }
                for task in TaskItem.open(in: note.body) {
                    items.append(Item(note: note.idString, title: note.title, line: task.line, text: task.text))
                }
            }
            cursor = page.next
        } while cursor != nil
        if json { return try Output.json(items) }
        if items.isEmpty, Output.stdoutIsTerminal { Output.line("No open tasks.") }
        for item in items {
            let title = TerminalSafeText.sanitize(item.title.isEmpty ? "(untitled)" : item.title)
            Output.line("\(item.note.prefix(8))  \(title):\(item.line)  \(TerminalSafeText.sanitize(item.text))")
        }
    }
}

struct TodoDone: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done", abstract: "Tick the open task on LINE of NOTE (- [ ] becomes - [x]).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Argument(help: "The body line of the task, as `todo` lists it.") var line: Int

    func run() throws {
        let store = try Context(global).openStore()
        let current = try store.resolve(note)
        guard let ticked = TaskItem.ticking(line: line, in: current.body) else {
            let done = TaskItem.all(in: current.body).contains { $0.line == line && $0.isDone }
            throw CLIError(
                done
                    ? "line \(line) of \(current.title) is already done"
                    : "line \(line) of \(current.title) is not an open task (- [ ]); `cloudnotes todo` lists them")
        }
        let task = TaskItem.all(in: current.body).first { $0.line == line }
        _ = try store.update(current.id) { $0.body = ticked }
        if Output.stdoutIsTerminal { Output.line("done: \(TerminalSafeText.sanitize(task?.text ?? ""))") }
    }
}
