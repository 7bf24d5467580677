import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
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
    @Option(help: "Move to this notebook.") var notebook: String?

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        let current = try store.resolve(note)
        if title != nil || body != nil || file != nil || notebook != nil {
            let newBody = try body ?? file.map(Input.read)
            let updated = try store.update(current.id) { note in
                if let title { note.title = title }
                if let newBody { note.body = newBody }
                if let notebook { note.zone = notebook }
            }
            if Output.stdoutIsTerminal { Output.line(updated.headRev == current.headRev ? "no changes" : "saved") }
            return
        }
        try editInteractively(current, store: store, context: context)
    }

    private func editInteractively(_ note: Note, store: NoteStore, context: Context) throws {
        let original = EditorText.compose(title: note.title, body: note.body)
        let path = try EditorText.makeTempFile(contents: original, id: note.id)
        let command = editorCommand(context)
        switch ExternalEditor.run(command: command, path: path) {
        case .exited(0):
            break
        case .exited(127):
            throw CLIError(
                "the editor \"\(command)\" was not found (set $VISUAL or $EDITOR); your text is kept in \(path)")
        case .exited(let status):
            throw CLIError("the editor exited with status \(status); your text is kept in \(path)")
        case .killed(let signal):
            throw CLIError("the editor was killed by signal \(signal); your text is kept in \(path)")
        case .notStarted(let reason):
            throw CLIError("cannot start the editor (\(reason)); your text is kept in \(path)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIError("cannot read the edited file \(path): \(Output.reason(error))")
        }
        guard let edited = String(validating: data, as: UTF8.self) else {
            throw CLIError("the edited file is not valid UTF-8; nothing was saved and the file is kept in \(path)")
        }
        guard !data.contains(0) else {
            throw CLIError(
                "the edited file contains a NUL byte, which a note cannot hold; nothing was saved and the file is kept in \(path)"
            )
        }
        // Bytes, not String ==: String equality is canonical equivalence, so an edit that only
        // changes Unicode normalization would otherwise count as "no changes".
        if data == Data(original.utf8) {
            try? FileManager.default.removeItem(atPath: path)
            if Output.stdoutIsTerminal { Output.line("no changes") }
            return
        }
        var (title, body) = EditorText.split(edited)
        // A title with line breaks is shown on one line; an untouched title line keeps the original.
        if title == EditorText.titleLine(note.title) { title = note.title }
        do {
            let latest = try store.note(note.id)
            _ = try store.update(note.id) { n in
                n.title = title
                n.body = body
            }
            try? FileManager.default.removeItem(atPath: path)
            if let latest, latest.headRev != note.headRev {
                Output.info(
                    "the note changed while you were editing; your text was saved and the other version is in `cloudnotes history`"
                )
            } else if Output.stdoutIsTerminal {
                Output.line("saved")
            }
        } catch {
            throw CLIError("could not save (\(error)); your text is kept in \(path)")
        }
    }

    private func editorCommand(_ context: Context) -> String {
        if let editor = context.config.editor { return editor }
        for key in ["VISUAL", "EDITOR"] {
            if let value = context.environment[key], !value.trimmingCharacters(in: .whitespaces).isEmpty {
                return value
            }
        }
        return "vi"
    }
}

/// The text an external editor sees: the title, a blank line, the body.
enum EditorText {
    static func compose(title: String, body: String) -> String {
        titleLine(title) + "\n\n" + body
    }

    /// The title on one line: CR and LF (which a synced or imported title may hold) become spaces.
    static func titleLine(_ title: String) -> String {
        String(String.UnicodeScalarView(title.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
    }

    /// Splits edited text: the first line is the title; one blank line after it is dropped.
    /// Works on scalars, since "\r\n" is one Character and a title may end in "\r".
    static func split(_ text: String) -> (title: String, body: String) {
        let scalars = text.unicodeScalars
        guard let newline = scalars.firstIndex(of: "\n") else { return (text, "") }
        var rest = scalars[scalars.index(after: newline)...]
        if rest.first == "\n" { rest = rest.dropFirst() }
        return (String(scalars[..<newline]), String(rest))
    }

    /// Creates a 0600 temporary file (O_EXCL) named after the note's id, never its title.
    static func makeTempFile(contents: String, id: UUID) throws -> String {
        let dir = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(dir)/cloudnotes-\(id.uuidString.lowercased().prefix(8))-XXXXXX.md".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 3) }
        guard fd >= 0 else {
            throw CLIError("cannot create a temporary file in \(dir): \(String(cString: strerror(errno)))")
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fchmod(fd, 0o600)
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(contents.utf8))
            try handle.synchronize()
        } catch {
            throw CLIError("cannot write the temporary file \(path): \(error.localizedDescription)")
        }
        return path
    }
}
