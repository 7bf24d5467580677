import NotesCore

extension NoteStore {
    /// Refuses text SQLite would cut short: GRDB binds and reads strings as C strings, so a
    /// body with U+0000 was stored up to its first NUL and the rest lost without an error.
    static func checkStorable(_ note: Note) throws {
        let fields = [("title", note.title), ("body", note.body)] + note.tags.map { ("tag", $0) }
        for (name, text) in fields where text.utf8Contains(0) {
            throw StoreError(
                .invalidInput,
                "the \(name) of note \(note.idString) contains a NUL character (U+0000), which cannot be stored")
        }
    }
}
