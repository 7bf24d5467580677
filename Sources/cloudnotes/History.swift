import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List a note's revisions, or show one with --show REV.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Option(help: "Show this revision (id or unique id prefix).") var show: String?
    @Flag(help: "Print JSON.") var json = false

    struct RevisionJSON: Encodable {
        var id: String
        var parents: [String]
        var device: String
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
        let store = try Context(global).openStore()
        let note = try store.resolve(self.note)
        let revisions = try store.history(note.id)
        if let show {
            let matches = revisions.filter { $0.id.hasPrefix(show.lowercased()) }
            guard matches.count == 1, let revision = matches.first else {
                throw CLIError(matches.isEmpty ? "no revision \(show) in this note's history" : "revision prefix \(show) is ambiguous")
            }
            if json { return try Output.json(Self.encode(revision, includeBody: true)) }
            guard let fields = revision.fields else { return Output.line("(deleted)") }
            guard Output.stdoutIsTerminal else { return Output.raw(fields.body) }
            Output.line(Output.style(TerminalSafeText.sanitize(fields.title), "1"))
            Output.line(Output.style("revision \(revision.id)  \(Format.iso(Date(millisecondsSince1970: revision.hlc.millis)))  device \(revision.device)", "2"))
            Output.line()
            Output.line(TerminalSafeText.sanitize(fields.body, mode: .block))
            return
        }
        if json { return try Output.json(revisions.map { Self.encode($0, includeBody: false) }) }
        for revision in revisions {
            let date = Date(millisecondsSince1970: revision.hlc.millis)
            let head = revision.id == note.headRev ? "*" : " "
            let summary: String
            if let fields = revision.fields {
                let flags = (fields.isFavorite ? " ★" : "") + (fields.deletedAt != nil ? " (trash)" : "")
                summary = TextWidth.clip(TerminalSafeText.sanitize(fields.title), to: 40) + flags + "  \(fields.body.utf8.count) bytes"
            } else {
                summary = "(deleted)"
            }
            Output.line("\(head) \(revision.id.prefix(12))  \(Format.iso(date))  \(revision.device)  \(summary)")
        }
    }

    static func encode(_ revision: Revision, includeBody: Bool) -> RevisionJSON {
        RevisionJSON(
            id: revision.id, parents: revision.parents, device: revision.device, hlc: revision.hlc.description,
            date: Format.iso(Date(millisecondsSince1970: revision.hlc.millis)), deleted: revision.isTombstone,
            title: revision.fields?.title, body: includeBody ? revision.fields?.body : nil,
            tags: revision.fields?.tags, isFavorite: revision.fields?.isFavorite,
            inTrash: revision.fields.map { $0.deletedAt != nil })
    }
}

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show the effective configuration and where each value came from.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try Context(global)
        let loaded = context.loaded
        let c = context.config
        let file = loaded.source.path
        func origin(_ key: String) -> String {
            if key == "dataDirectory" && global.dataDirectory != nil { return "--data-dir" }
            return loaded.keysFromFile.contains(key) ? (file ?? "file") : "default"
        }
        let entries: [(String, String)] = [
            ("dataDirectory", context.dataDirectory),
            ("cloudFolder", c.cloudFolder ?? "null (local only)"),
            ("deviceName", c.deviceName),
            ("conflictStrategy", c.conflictStrategy.rawValue),
            ("syncDebounceSeconds", String(c.syncDebounceSeconds)),
            ("pollIntervalSeconds", String(c.pollIntervalSeconds)),
            ("editor", c.editor ?? "null ($VISUAL, $EDITOR, vi)"),
            ("theme", c.theme.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")),
            ("keyBindings", c.keyBindings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")),
        ]
        let sourceText: String
        switch loaded.source {
        case .option(let p): sourceText = "\(p) (--config)"
        case .environment(let p): sourceText = "\(p) ($CLOUDNOTES_CONFIG)"
        case .xdg(let p): sourceText = "\(p) ($XDG_CONFIG_HOME)"
        case .defaults: sourceText = "none: embedded defaults"
        }
        if json {
            struct Entry: Encodable { var value: String; var origin: String }
            struct Report: Encodable { var file: String?; var source: String; var values: [String: Entry]; var warnings: [String] }
            return try Output.json(Report(
                file: file, source: sourceText,
                values: Dictionary(uniqueKeysWithValues: entries.map { ($0.0, Entry(value: $0.1, origin: origin($0.0))) }),
                warnings: loaded.warnings))
        }
        Output.line("config file: \(TerminalSafeText.sanitize(sourceText))")
        for (key, value) in entries {
            Output.line("\(key.padding(toLength: 20, withPad: " ", startingAt: 0)) \(TerminalSafeText.sanitize(value))  \(Output.style("(\(origin(key)))", "2"))")
        }
    }
}
