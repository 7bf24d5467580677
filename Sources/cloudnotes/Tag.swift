import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Tag: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Show, add or remove a note's tags.",
        discussion:
            "cloudnotes tag NOTE work ideas    adds tags; --remove TAG removes one; with neither, prints the tags. "
            + "cloudnotes tag rename OLD NEW    renames a tag on every note (as tags rename).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Argument(help: "Tags to add.") var add: [String] = []
    @Option(name: .shortAndLong, help: "A tag to remove (repeatable).") var remove: [String] = []
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let store = try Context(global).openStore()
        // `tag rename OLD NEW` is `tags rename OLD NEW`, unless a note is titled "rename".
        if self.note == "rename", add.count == 2, remove.isEmpty, !json,
            (try? store.resolve(self.note)) == nil
        {
            let changed = try store.renameTag(add[0], to: add[1])
            guard changed > 0 else { throw CLIError("no note has the tag \"\(TerminalSafeText.sanitize(add[0]))\"") }
            return Output.line("renamed tag on \(changed) note(s)")
        }
        var note = try store.resolve(self.note)
        if !add.isEmpty || !remove.isEmpty {
            let removing = Set(remove)
            note = try store.update(note.id) { $0.tags = $0.tags.filter { !removing.contains($0) } + add }
        }
        if json { return try Output.json(note.tags) }
        for tag in note.tags { Output.line(Output.display(tag)) }
    }
}
