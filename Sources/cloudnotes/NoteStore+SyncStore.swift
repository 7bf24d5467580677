import NotesStore
import NotesSync

// The store is the sync engine's delegate (ARCHITECTURE §1): NoteStore's sync API meets NotesSync's
// protocol as it stands. (NotesRuntime may host this conformance once it exists.)
extension NoteStore: SyncStore {}
