import CloudFolder
import NotesStore
import NotesSync

// The store is the sync engine's delegate (ARCHITECTURE §1): NoteStore's sync API meets NotesSync's
// protocol as it stands. (NotesRuntime may host this conformance once it exists.)
extension NoteStore: SyncStore {}

// The store keeps attachment content in the data directory; the cloud folder streams it
// (SYNC-FORMAT rule 15).
extension NoteStore: AttachmentContent {}
