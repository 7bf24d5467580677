import Foundation
import GRDB
import NotesCore

extension NoteStore {
    /// Lets a note that was once over the size limit sync again (SYNC-FORMAT "Writing", the 1 MB
    /// record limit). A revision over the limit never leaves this device, so no revision that
    /// names it as a parent may leave either (a receiver would wait for that parent forever),
    /// and the outbox would hold the note back for good. Once the note's single head is
    /// publishable again (`isPublishable`), the record's whole unpublished part (every revision
    /// still in its outbox: the one over the limit and all after it) is replaced by one revision
    /// with the head's fields whose parents are the parents of that part that lie outside it
    /// (revisions already published or received). The replaced revisions are deleted: none was
    /// ever published, so no device can hold or name them. The note shows the same text; its
    /// history loses the unpublished intermediate versions.
    ///
    /// Returns the new revision, or nil when nothing was replaced: nothing of the record is over
    /// the limit, the head is over the limit itself, or the note has several heads (a conflict;
    /// resolving it makes one head, and the next send gets here again).
    @discardableResult
    public func supersedeUnpublishable(_ recordID: UUID, isPublishable: (Revision) -> Bool) throws -> Revision? {
        try write { db in
            let record = recordID.lowercasedString
            let queued = try Row.fetchAll(
                db, sql: "SELECT seq, revID, zone FROM outbox WHERE recordID = ? ORDER BY seq", arguments: [record])
            let unpublished = Set(queued.map { $0["revID"] as String })
            let history = try Self.fetchRevisions(record, db)
            let part = history.filter { unpublished.contains($0.id) }
            let heads = Self.heads(of: history)
            guard part.contains(where: { !isPublishable($0) }), heads.count == 1, let head = heads.first,
                unpublished.contains(head.id), isPublishable(head)
            else { return nil }
            let frontier = Set(part.flatMap(\.parents)).subtracting(unpublished)
            let replacement = Revision(
                recordID: recordID, parents: Array(frontier), fields: head.fields, hlc: try nextHLC(db),
                device: deviceID)
            guard isPublishable(replacement) else { return nil }
            for id in unpublished { try db.run("DELETE FROM revision WHERE id = ?", [id]) }
            try db.run("DELETE FROM outbox WHERE recordID = ?", [record])
            try insert(replacement, db)
            let zone = head.fields?.zone ?? queued.last.map { $0["zone"] as String } ?? Note.defaultZone
            try enqueue(replacement, zone: zone, kind: replacement.isTombstone ? "delete" : "save", db)
            try materialize(replacement, conflict: false, db)
            return replacement
        }
    }
}
