import ArgumentParser
import Foundation
import NotesCore
import NotesStore

/// `today [--template NAME]`: the day's note, made from the `Daily` template when missing.
struct Today: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Open the day's note (titled YYYY-MM-DD), creating it from the Daily template if missing.",
        discussion: """
            Templates are notes in the `templates` notebook; {{date}}, {{time}} and {{title}} in them are filled in. \
            On a terminal the note opens in $VISUAL/$EDITOR (as `edit`); otherwise its id is printed.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "The template to use instead of Daily.") var template: String?
    @Flag(help: "Print the note's id instead of opening it.") var print = false

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        let (note, created) = try store.dailyNote(date: context.now, timeZone: .current, template: template)
        guard Output.stdinIsTerminal, Output.stdoutIsTerminal, !print else {
            Output.line(note.idString)
            if created, Output.stdoutIsTerminal { Output.info("created \(note.title)") }
            return
        }
        let edit = try Edit.parse([note.idString] + global.arguments)
        try edit.run()
    }
}

extension GlobalOptions {
    /// These options as a command line, to run another command with them.
    var arguments: [String] {
        (configPath.map { ["--config", $0] } ?? []) + (dataDirectory.map { ["--data-dir", $0] } ?? [])
    }
}

extension Context {
    /// Now, or `$CLOUDNOTES_NOW` (ISO 8601) when set: daily notes and templates in tests and
    /// scripts that need a fixed day.
    var now: Date { environment["CLOUDNOTES_NOW"].flatMap(ISODate.parse) ?? Date() }
}
