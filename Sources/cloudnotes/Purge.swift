import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Purge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Delete notes in the trash for good.",
        discussion:
            "Only notes in the trash can be purged (use rm first, or --force). --empty-trash purges the whole trash.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var notes: [String] = []
    @Flag(help: "Purge every note in the trash.") var emptyTrash = false
    @Flag(help: "Also purge notes that are not in the trash.") var force = false

    func validate() throws {
        if notes.isEmpty && !emptyTrash { throw ValidationError("name the notes to purge, or give --empty-trash") }
    }

    func run() throws {
        let store = try Context(global).openStore()
        var purged = 0
        let resolved = try store.resolveAll(notes)
        if !force, let note = resolved.first(where: { !$0.isTrashed }) {
            throw CLIError(
                "\(Format.shortID(note.id)) is not in the trash; nothing was purged (move it there with `cloudnotes rm` first, or use --force)"
            )
        }
        for note in resolved {
            try store.purge(note.id)
            purged += 1
        }
        if emptyTrash { purged += try store.emptyTrash() }
        if Output.stdoutIsTerminal { Output.line("purged \(purged) note\(purged == 1 ? "" : "s")") }
    }
}
