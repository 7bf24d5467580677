import Foundation
import GRDB
import NotesCore

/// Which notes moved since a reader last looked, from the store's change sequence
/// (`note_change`, `Schema.noteChanges1`): the notes folder's pass reads the heads of the notes
/// that changed, not every head.
extension NoteStore {
    /// Notes changed after a number of the change sequence.
    public struct NoteHeadChanges: Sendable {
        /// The newest number: the next look asks for what came after it.
        public var sequence: Int64
        /// The changed notes not in the trash, as `allNoteHeads` gives them (no text).
        public var live: [Note]
        /// The changed notes now in the trash or gone.
        public var gone: [UUID]
    }

    /// Every note not in the trash as `allNoteHeads` gives them, and the change sequence's
    /// newest number, in one read: a later `noteHeads(changedAfter:)` gives what moved since.
    public func allNoteHeadsAndSequence() throws -> (notes: [Note], sequence: Int64) {
        try read { db in
            let notes = try Self.noteHeads(db)
            return (notes, try Self.changeSequence(db))
        }
    }

    /// The notes changed (inserted, deleted, or updated in notebook, title, creation, trash or
    /// head) after `sequence`, in one read.
    public func noteHeads(changedAfter sequence: Int64) throws -> NoteHeadChanges {
        try read { db in
            let now = try Self.changeSequence(db)
            guard now > sequence else { return NoteHeadChanges(sequence: now, live: [], gone: []) }
            let changed = "SELECT noteID FROM note_change WHERE seq > \(sequence)"
            let live = try Self.noteHeads(db, among: changed)
            let liveIDs = Set(live.map(\.id))
            let all = try String.fetchAll(db, sql: changed)
            let gone = all.compactMap { UUID(uuidString: $0) }.filter { !liveIDs.contains($0) }
            return NoteHeadChanges(sequence: now, live: live, gone: gone)
        }
    }

    /// The change sequence's newest number (0: nothing changed since the table was made).
    static func changeSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM note_change") ?? 0
    }
}
