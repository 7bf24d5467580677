import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Move notes to the trash (restore brings them back).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var notes: [String]

    func run() throws {
        let store = try Context(global).openStore()
        for note in try store.resolveAll(notes) {
            _ = try store.trash(note.id)
            if Output.stdoutIsTerminal {
                Output.line("moved to trash: \(Format.shortID(note.id)) \(TerminalSafeText.sanitize(note.title))")
            }
        }
    }
}
