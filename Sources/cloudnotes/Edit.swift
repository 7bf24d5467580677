import ArgumentParser
import Foundation
import NotesCore
import NotesRuntime
import NotesStore
import NotesSync

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit a note in $EDITOR, or set its title or body from options.",
        discussion: """
            The editor gets a private (0600) temporary file whose first line is the title and the rest, after one \
            blank line, the body. The note is saved only if the text changed. If the editor fails or the save fails, \
            the file is kept and its path printed, so no text is lost.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Option(parsing: .unconditional, help: "Set the title (may start with -).") var title: String?
    @Option(name: .shortAndLong, parsing: .unconditional, help: "Set the body (may start with -).") var body: String?
    @Option(name: .shortAndLong, help: "Set the body from a file (- for stdin).") var file: String?
    @Option(help: "Move to this notebook (its name or id).") var notebook: String?

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        let current = try store.resolve(note)
        if title != nil || body != nil || file != nil || notebook != nil {
            let newBody = try body ?? file.map(Input.read)
            let zone = try notebook.map { try store.notebookZone($0) }
            let linking = title == nil ? 0 : try store.backlinks(of: current.id).count
            let updated = try store.update(current.id) { note in
                if let title { note.title = title }
                if let newBody { note.body = newBody }
                if let zone { note.zone = zone }
            }
            if Output.stdoutIsTerminal { Output.line(updated.headRev == current.headRev ? "no changes" : "saved") }
            if linking > 0, updated.title != current.title {
                Output.warn(
                    "\(linking) note(s) link to the old title; 'cloudnotes rename NOTE TITLE --update-links' rewrites links"
                )
            }
            return
        }
        try editInteractively(current, store: store, context: context)
    }

    private func editInteractively(_ note: Note, store: NoteStore, context: Context) throws {
        let command = ExternalEditor.command(configured: context.config.editor, environment: context.environment)
        let outcome: ExternalEdit.Outcome
        do {
            outcome = try ExternalEdit.run(note, command: command)
        } catch let failure as ExternalEdit.Failure {
            throw CLIError(failure.message)
        }
        guard case .edited(let title, let body, let path) = outcome else {
            if Output.stdoutIsTerminal { Output.line("no changes") }
            return
        }
        do {
            // Merged as sync merges when the note changed while the editor was open, and
            // flagged when the merge kept conflict markers (never a silent conflict).
            let resolver = ConflictResolver(strategy: context.config.conflictStrategy)
            let result = try store.update(note.id, onBase: note.headRev, resolve: resolver.resolve) { n in
                n.title = title
                n.body = body
            }
            // The text is saved: a temp file left behind (0600, in $TMPDIR) loses nothing.
            try? FileManager.default.removeItem(atPath: path)
            if result.conflict {
                Output.info(
                    "the note changed while you were editing: both versions were merged and the note is flagged as a conflict (see `cloudnotes conflicts`; `cloudnotes resolve` keeps one side)"
                )
            } else if result.merged {
                Output.info("the note changed while you were editing; your text was merged with the other change")
            } else if Output.stdoutIsTerminal {
                Output.line("saved")
            }
        } catch {
            throw CLIError("could not save (\(error)); your text is kept in \(path)")
        }
    }
}
