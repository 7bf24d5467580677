import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a note (also `new`).",
        discussion:
            "The body comes from --body, --file (- for stdin) or piped stdin. Without a title the body's first line is the title (and leaves the body).",
        aliases: ["new"]
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The title.") var title: String = ""
    @Option(name: .shortAndLong, parsing: .unconditional, help: "The body text (may start with -).") var body: String?
    @Option(name: .shortAndLong, help: "Read the body from a file (- for stdin).") var file: String?
    @Flag(help: "Mark as favorite.") var fav = false
    @Option(name: .shortAndLong, help: "A tag (repeatable).") var tag: [String] = []
    @Option(help: "The notebook: its name, or an id (lowercase letters, digits, -).") var notebook: String = Note
        .defaultZone
    @Option(help: "Make the note from this template (a note in the templates notebook; see today).")
    var template: String?
    @Flag(help: "Print the note as JSON.") var json = false

    func run() throws {
        let context = try Context(global)
        let text = try Input.body(option: body, file: file) ?? ""
        guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || !text.isEmpty || template != nil else {
            throw CLIError("nothing to add: give a title or a body")
        }
        let store = try context.openStore()
        var note: Note
        if let template {
            note = try store.create(
                fromTemplate: template, title: title, body: text, tags: tag, zone: store.notebookZone(notebook),
                date: context.now, timeZone: .current)
            if fav { note = try store.setFavorite(note.id, true) }
        } else {
            // Without a title the first line is the title, and leaves the body (once, not twice).
            let (title, body) =
                title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? Self.splitTitle(text) : (title, text)
            note = try store.create(
                title: title, body: body, tags: tag, isFavorite: fav, zone: store.notebookZone(notebook))
        }
        if json {
            try Output.json(NoteJSON(note))
        } else {
            Output.line(note.idString)
        }
    }

    /// A body's first non-blank line as a title (a heading's `#` marks dropped) and the rest as
    /// the body, without the blank lines that separated them: `# Plan\n\nstep 1` is titled `Plan`
    /// with body `step 1`. Line ends are split at LF (a CR before it stays with its line, trimmed
    /// from the title).
    static func splitTitle(_ text: String) -> (title: String, body: String) {
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        func isBlank(_ line: String) -> Bool { line.allSatisfy(\.isWhitespace) }
        while let first = lines.first, isBlank(first), lines.count > 1 { lines.removeFirst() }
        guard let first = lines.popFirst() else { return ("", text) }
        var title = first.trimmingCharacters(in: .whitespacesAndNewlines)
        if title.hasPrefix("#") {
            let heading = title.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces)
            if !heading.isEmpty { title = heading }
        }
        while let next = lines.first, isBlank(next), lines.count > 1 { lines.removeFirst() }
        return (title, lines.joined(separator: "\n"))
    }
}
