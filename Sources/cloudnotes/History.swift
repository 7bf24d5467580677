import ArgumentParser
import Foundation
import NotesCore
import NotesStore
import TerminalUI

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List a note's revisions, or show one with --show REV.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Option(help: "Show this revision (id or unique id prefix).") var show: String?
    @Flag(help: "Print JSON.") var json = false

    struct RevisionJSON: Encodable {
        var id: String
        var parents: [String]
        var device: String
        /// The device's name as sync last read it (`deviceName`), when known.
        var deviceName: String?
        var hlc: String
        var date: String
        var deleted: Bool
        var title: String?
        var body: String?
        var tags: [String]?
        var isFavorite: Bool?
        var inTrash: Bool?
    }

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore(.read)
        let labels = DeviceLabels(store: store, deviceName: context.config.deviceName)
        let note = try store.resolve(self.note)
        let revisions = try store.history(note.id)
        if let show {
            let matches = revisions.filter { $0.id.hasPrefix(show.lowercased()) }
            guard matches.count == 1, let revision = matches.first else {
                throw CLIError(
                    matches.isEmpty
                        ? "no revision \(show) in this note's history" : "revision prefix \(show) is ambiguous")
            }
            if json { return try Output.json(Self.encode(revision, includeBody: true, labels: labels)) }
            guard let fields = revision.fields else { return Output.line("(deleted)") }
            guard Output.stdoutIsTerminal else { return Output.raw(fields.body) }
            Output.line(Output.style(TerminalSafeText.sanitize(fields.title), "1"))
            Output.line(
                Output.style(
                    "revision \(revision.id)  \(Format.iso(Date(millisecondsSince1970: revision.hlc.millis)))  device \(labels.describe(revision.device))",
                    "2"))
            Output.line()
            Output.line(TerminalSafeText.sanitize(labels.relabelingMarkers(in: fields.body), mode: .block))
            return
        }
        if json { return try Output.json(revisions.map { Self.encode($0, includeBody: false, labels: labels) }) }
        for revision in revisions {
            let date = Date(millisecondsSince1970: revision.hlc.millis)
            let head = revision.id == note.headRev ? "*" : " "
            let summary: String
            if let fields = revision.fields {
                let flags = (fields.isFavorite ? " ★" : "") + (fields.deletedAt != nil ? " (trash)" : "")
                summary =
                    TextWidth.clip(TerminalSafeText.sanitize(fields.title), to: 40, ellipsis: true) + flags
                    + "  \(fields.body.utf8.count) bytes"
            } else {
                summary = "(deleted)"
            }
            // Devices by name (DeviceLabels makes other devices' text safe to print).
            let device = TextWidth.pad(TextWidth.clip(labels.label(revision.device), to: 16, ellipsis: true), to: 16)
            Output.line("\(head) \(revision.id.prefix(12))  \(Format.iso(date))  \(device)  \(summary)")
        }
    }

    static func encode(_ revision: Revision, includeBody: Bool, labels: DeviceLabels) -> RevisionJSON {
        RevisionJSON(
            id: revision.id, parents: revision.parents, device: revision.device,
            deviceName: labels.names[revision.device], hlc: revision.hlc.description,
            date: Format.iso(Date(millisecondsSince1970: revision.hlc.millis)), deleted: revision.isTombstone,
            title: revision.fields?.title, body: includeBody ? revision.fields?.body : nil,
            tags: revision.fields?.tags, isFavorite: revision.fields?.isFavorite,
            inTrash: revision.fields.map { $0.deletedAt != nil })
    }
}
