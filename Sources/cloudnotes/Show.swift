import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a note.",
        discussion:
            "On a terminal, prints the title, details and body made safe for display. When piped, writes the stored body bytes unchanged."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore(.read)
        let note = try store.resolve(self.note)
        if json { return try Output.json(NoteJSON(note)) }
        guard Output.stdoutIsTerminal else { return Output.raw(note.body) }
        Output.line(Output.style(TerminalSafeText.sanitize(note.title.isEmpty ? "(untitled)" : note.title), "1"))
        var details = [
            "id \(note.idString)", "notebook \(note.zone)",
            "\(Format.syncMark(note.syncState)) \(note.syncState.rawValue)",
        ]
        if note.isFavorite { details.append("★ favorite") }
        if note.isTrashed { details.append("in trash") }
        Output.line(Output.style(TerminalSafeText.sanitize(details.joined(separator: "  ")), "2"))
        if !note.tags.isEmpty {
            Output.line(Output.style(TerminalSafeText.sanitize(note.tags.map { "#" + $0 }.joined(separator: " ")), "2"))
        }
        Output.line(Output.style("created \(Format.iso(note.createdAt))  modified \(Format.iso(note.modifiedAt))", "2"))
        Output.line()
        // Marker lines name devices as people know them (on a terminal only; piped, the bytes).
        let labels = DeviceLabels(store: store, deviceName: context.config.deviceName)
        Output.line(TerminalSafeText.sanitize(labels.relabelingMarkers(in: note.body), mode: .block))
    }
}
