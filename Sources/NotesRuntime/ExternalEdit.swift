import Foundation
import NotesCore

/// One round of editing a note in the user's editor: its text in a private temporary file, the
/// editor run on it, the result read back and checked. Saving is the caller's (the CLI prints,
/// the TUI posts an action), and so is removing the file once the text is safe in the store.
///
/// Whatever goes wrong, the user's text is never lost: the file is kept and the message names it.
public enum ExternalEdit {
    public enum Outcome: Equatable, Sendable {
        /// The editor left the text byte for byte as it was; the file is already removed.
        case unchanged
        /// New title and body; `path` still holds them until the caller has saved.
        case edited(title: String, body: String, path: String)
    }

    /// Why an edit produced nothing to save, in words for the user (the kept file included).
    public struct Failure: Error, Equatable, Sendable {
        public var message: String
    }

    /// Runs `command` on `note`'s text and returns what to save.
    ///
    /// The file ends with a line break, as editors expect (vi adds one on save, nano shows a
    /// missing one): when the note's text has none, one is added for the editor and taken off
    /// again on the way back, if the file still ends with one.
    public static func run(_ note: Note, command: String) throws -> Outcome {
        var original = EditorText.compose(title: note.title, body: note.body)
        let addedNewline = !original.hasSuffix("\n")
        if addedNewline { original += "\n" }
        let path = try EditorText.makeTempFile(contents: original, id: note.id)
        switch ExternalEditor.run(command: command, path: path) {
        case .exited(0):
            break
        case .exited(127):
            throw Failure(
                message:
                    "the editor \"\(command)\" was not found (set $VISUAL or $EDITOR); your text is kept in \(path)"
            )
        case .exited(let status):
            throw Failure(message: "the editor exited with status \(status); your text is kept in \(path)")
        case .killed(let signal):
            throw Failure(message: "the editor was killed by signal \(signal); your text is kept in \(path)")
        case .notStarted(let reason):
            throw Failure(message: "cannot start the editor (\(reason)); your text is kept in \(path)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Failure(message: "cannot read the edited file \(path): \(EditorText.reason(error))")
        }
        guard let edited = String(validating: data, as: UTF8.self) else {
            throw Failure(
                message: "the edited file is not valid UTF-8; nothing was saved and the file is kept in \(path)")
        }
        guard !data.contains(0) else {
            throw Failure(
                message:
                    "the edited file contains a NUL byte, which a note cannot hold; nothing was saved and the file is kept in \(path)"
            )
        }
        // Bytes, not String ==: String equality is canonical equivalence, so an edit that only
        // changes Unicode normalization would otherwise count as "no changes".
        if data == Data(original.utf8) {
            try? FileManager.default.removeItem(atPath: path)
            return .unchanged
        }
        var text = edited
        if addedNewline, text.last == "\n" || text.last == "\r\n" { text.removeLast() }
        var (title, body) = EditorText.split(text)
        // A title with line breaks is shown on one line; an untouched title line keeps the original.
        if title == EditorText.titleLine(note.title) { title = note.title }
        return .edited(title: title, body: body, path: path)
    }
}
