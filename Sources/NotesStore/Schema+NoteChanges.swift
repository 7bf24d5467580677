extension Schema {
    /// Frozen: the store's change sequence (`note-changes-1`). Each note row inserted, deleted,
    /// or updated in what names or dates its file (notebook, title, creation, trash, head
    /// revision) takes the next number in `note_change` (AUTOINCREMENT: a number is never given
    /// twice, even when the newest row is replaced), so a reader that kept the last number
    /// learns which notes moved since without reading every note (the notes folder's pass,
    /// `NoteStore.noteHeads(changedAfter:)`). One row per note: the newest change, made by a
    /// delete then an insert (an outer statement's conflict clause, such as GRDB's, would
    /// override an `OR REPLACE` in a trigger: "UNIQUE constraint failed").
    static let noteChanges1 = """
        CREATE TABLE note_change (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            noteID TEXT NOT NULL UNIQUE
        );
        CREATE TRIGGER note_change_on_insert AFTER INSERT ON note BEGIN
            DELETE FROM note_change WHERE noteID = NEW.id;
            INSERT INTO note_change(noteID) VALUES (NEW.id);
        END;
        CREATE TRIGGER note_change_on_update AFTER UPDATE OF zone, title, createdAt, deletedAt, headRev ON note BEGIN
            DELETE FROM note_change WHERE noteID = NEW.id;
            INSERT INTO note_change(noteID) VALUES (NEW.id);
        END;
        CREATE TRIGGER note_change_on_delete AFTER DELETE ON note BEGIN
            DELETE FROM note_change WHERE noteID = OLD.id;
            INSERT INTO note_change(noteID) VALUES (OLD.id);
        END;
        """
}
