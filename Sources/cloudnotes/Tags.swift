import ArgumentParser
import Foundation
import NotesCore
import NotesStore

/// `tags [--json]` and `tags rename OLD NEW`.
struct Tags: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "List tags with how many notes carry each, or rename a tag across notes.",
        subcommands: [TagsList.self, TagsRename.self], defaultSubcommand: TagsList.self)
}

struct TagsList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List tags with counts (with config bodyHashtags, #words in bodies count too).")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    struct Row: Encodable {
        var tag: String
        var count: Int
    }

    func run() throws {
        let context = try Context(global)
        let counts = try context.openStore(.read).tagCounts(bodyHashtags: context.config.bodyHashtags)
        if json { return try Output.json(counts.map { Row(tag: $0.tag, count: $0.count) }) }
        for (tag, count) in counts { Output.line("\(Output.display(tag))  \(count)") }
    }
}

struct TagsRename: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Rename a tag on every note that has it (each an edit that syncs).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The tag to rename.") var old: String
    @Argument(help: "The new tag.") var new: String

    func run() throws {
        let changed = try Context(global).openStore().renameTag(old, to: new)
        guard changed > 0 else { throw CLIError("no note has the tag \"\(TerminalSafeText.sanitize(old))\"") }
        Output.line("renamed tag on \(changed) note(s)")
    }
}
