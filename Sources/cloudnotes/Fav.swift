import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Fav: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fav", abstract: "Mark notes as favorites.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var notes: [String]

    func run() throws { try setFavorite(global, notes, true) }
}

struct Unfav: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unfav", abstract: "Remove notes from the favorites.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var notes: [String]

    func run() throws { try setFavorite(global, notes, false) }
}

private func setFavorite(_ global: GlobalOptions, _ references: [String], _ value: Bool) throws {
    let store = try Context(global).openStore()
    for note in try store.resolveAll(references) {
        _ = try store.setFavorite(note.id, value)
        if Output.stdoutIsTerminal {
            Output.line("\(value ? "★" : "☆") \(TerminalSafeText.sanitize(note.title))")
        }
    }
}
