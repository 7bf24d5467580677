import NotesCore

/// One change found in the notes folder since the mirror last looked.
enum FolderChange {
    /// A file as it was read: its parsed note, its bytes' hash and stat.
    struct ReadFile {
        var path: String
        var parsed: MarkdownNote.Parsed
        var sha256: String
        var stat: FileStat
    }

    /// The note's file was saved (in place, or renamed over by an editor).
    case edited(id: String, ReadFile)
    /// The note's file is now at another path (another folder: another notebook; another name:
    /// another title), and may be edited too.
    case moved(id: String, from: String, ReadFile)
    /// A file with no note: a new note.
    case created(ReadFile)
    /// A file naming a note this folder has no record of (a folder turned on over an export).
    case adopted(id: String, ReadFile)
    /// The note's file is gone: its note goes to the trash.
    case deleted(id: String, path: String)
    /// The file's bytes are what the mirror last saw; only its stat changed (a `touch`).
    case touched(id: String, FileStat)
}
