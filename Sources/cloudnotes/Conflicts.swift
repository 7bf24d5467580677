import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Conflicts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "List notes with a sync conflict and the versions each is between.",
        discussion: "Resolve one with 'cloudnotes resolve ID --keep mine|theirs|both', or edit the note.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    struct ConflictJSON: Encodable {
        var id: String
        var title: String
        var versions: [History.RevisionJSON]
    }

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        let labels = DeviceLabels(store: store, deviceName: context.config.deviceName)
        let notes = try store.conflictedNotes()
        let conflicts = try notes.map { note in
            ConflictJSON(
                id: note.idString, title: note.title,
                versions: try store.conflictSides(note.id).map {
                    History.encode($0, includeBody: false, labels: labels)
                })
        }
        if json { return try Output.json(conflicts) }
        if conflicts.isEmpty { return Output.line("no conflicts") }
        for conflict in conflicts {
            Output.line("\(conflict.id)  \(Output.display(conflict.title))")
            for version in conflict.versions {
                // Titles come from other devices: untrusted like note text (DeviceLabels makes
                // device names safe).
                Output.line(
                    "    \(version.id.prefix(12))  \(version.date)  \(labels.describe(version.device))  "
                        + (version.deleted ? "(deleted)" : TerminalSafeText.sanitize(version.title ?? "")))
            }
        }
    }
}

struct Resolve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Resolve a note's sync conflict by keeping one version (both versions stay in its history).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Option(help: "mine (this device's version), theirs (the other), or both (theirs becomes a new note).")
    var keep: ConflictChoice

    func run() throws {
        let store = try Context(global).openStore()
        let note = try store.resolve(self.note)
        let (resolved, copy) = try store.resolveConflict(note.id, keep: keep)
        Output.line(resolved.idString)
        if let copy { Output.line(copy.idString) }
    }
}

extension ConflictChoice: ExpressibleByArgument {}
