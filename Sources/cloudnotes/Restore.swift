import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring notes back from the trash.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var notes: [String]

    func run() throws {
        let store = try Context(global).openStore()
        for reference in notes {
            let note = try store.resolve(reference)
            guard note.isTrashed else { throw CLIError("\(Format.shortID(note.id)) is not in the trash") }
            _ = try store.restore(note.id)
            if Output.stdoutIsTerminal {
                Output.line("restored: \(Format.shortID(note.id)) \(TerminalSafeText.sanitize(note.title))")
            }
        }
    }
}
