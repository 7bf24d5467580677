import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Bring notes back from the trash.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var notes: [String]

    func run() throws {
        let store = try Context(global).openStore()
        let resolved = try store.resolveAll(notes)
        if let note = resolved.first(where: { !$0.isTrashed }) {
            throw CLIError("\(Format.shortID(note.id)) is not in the trash; nothing was restored")
        }
        for note in resolved {
            _ = try store.restore(note.id)
            if Output.stdoutIsTerminal {
                Output.line("restored: \(Format.shortID(note.id)) \(TerminalSafeText.sanitize(note.title))")
            }
        }
    }
}
