import Foundation
import GRDB
import NotesCore

/// What `update(_:onBase:resolve:_:)` did.
public struct EditOnBase: Sendable, Equatable {
    /// The note as saved (the merge, when there was one).
    public var note: Note
    /// The head had moved past the base: the edit was merged with the other change (the note
    /// is not what was sent; an editor shows `note`).
    public var merged: Bool
    /// The note is flagged `conflict`: the merge kept conflict markers or both titles differ
    /// (or, under `askUser`, the heads were kept).
    public var conflict: Bool
}

extension NoteStore {
    /// Saves an edit made on top of revision `base` (an editor opened the note at `base`).
    ///
    /// While the head is still `base` (or `base` is nil or unknown), this is `update`. When the
    /// head moved meanwhile (sync, another process), the edit becomes a revision whose parent
    /// is `base`, a second head beside the other change, and the heads are merged by `resolve`
    /// exactly as a fetch merges them (SYNC-FORMAT rule 8): the merge revision any device
    /// makes from these heads (device ids as labels, the latest head's stamp), sent with the
    /// edit. A merge that keeps conflict markers, or both titles, flags the note `conflict`
    /// here and on every device that receives it, so `conflicts` lists it: never a silent
    /// merge with markers in the text.
    @discardableResult
    public func update(
        _ id: UUID, onBase base: String?, resolve: HeadsResolver, _ change: (inout Note) throws -> Void
    ) throws -> EditOnBase {
        try write { db in
            guard let current = try Self.fetchNote(db, id: id) else {
                throw StoreError(.notFound, "no note with id \(id.lowercasedString)")
            }
            guard let base, current.headRev != base,
                let baseRevision = try Self.fetchRevision(base, of: id.lowercasedString, db),
                let baseFields = baseRevision.fields
            else {
                guard let next = try edited(current, change) else {
                    return EditOnBase(note: current, merged: false, conflict: current.syncState == .conflict)
                }
                return EditOnBase(note: try save(next, previous: current, db), merged: false, conflict: false)
            }
            let baseNote = baseFields.note(id: id, headRev: base, syncState: .synced)
            guard let next = try edited(baseNote, change) else {
                // Nothing changed against what the editor started from: the other change stands
                // (a merge with nothing to add; the editor must show it, not keep its text).
                return EditOnBase(note: current, merged: true, conflict: current.syncState == .conflict)
            }
            let edit = Revision(
                recordID: id, parents: [base], fields: RevisionFields(note: next), hlc: try nextHLC(db),
                device: deviceID)
            try insert(edit, db)
            try enqueue(edit, zone: next.zone, kind: "save", db)
            _ = try recompute(id.lowercasedString, resolve: resolve, db)
            guard let saved = try Self.fetchNote(db, id: id) else {
                throw StoreError(.notFound, "note \(id.lowercasedString) vanished while saving")
            }
            return EditOnBase(note: saved, merged: true, conflict: saved.syncState == .conflict)
        }
    }
}
