import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Tag: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show, add or remove a note's tags.",
        discussion:
            "cloudnotes tag NOTE work ideas    adds tags; --remove TAG removes one; with neither, prints the tags.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Argument(help: "Tags to add.") var add: [String] = []
    @Option(name: .shortAndLong, help: "A tag to remove (repeatable).") var remove: [String] = []
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let store = try Context(global).openStore()
        var note = try store.resolve(self.note)
        if !add.isEmpty || !remove.isEmpty {
            let removing = Set(remove)
            note = try store.update(note.id) { $0.tags = $0.tags.filter { !removing.contains($0) } + add }
        }
        if json { return try Output.json(note.tags) }
        for tag in note.tags { Output.line(Output.display(tag)) }
    }
}
