import Foundation
import NotesCore

/// Resolves the concurrent heads of one record: SYNC-FORMAT rule 8, deterministic and convergent.
///
/// A pure function of the heads and their history, so every device that sees the same heads
/// makes the same merge revision: its parents are the heads (sorted, as every revision's are),
/// its fields a function of the heads in rev-id order and their common ancestor, and its stamp
/// the latest head's (HLC, device). Content addressing then gives it the same id everywhere.
///
/// - Edit against delete: a tombstone never beats an edit; the edits are resolved among
///   themselves and the note comes back. Only tombstones: the merge is a tombstone.
/// - `merge`: field by field against the common ancestor (`FieldMerge`); bodies by `TextMerge`.
/// - `serverWins` / `clientWins`: the earliest / latest edit by (HLC, device) is taken whole.
/// - `askUser`: no merge; the heads stay and the note is flagged.
/// Whatever loses stays in history: the heads are the merge's parents.
public struct ConflictResolver: Sendable {
    public var strategy: ConflictStrategy

    public init(strategy: ConflictStrategy) { self.strategy = strategy }

    /// The merge of `heads` (two or more), and whether the note must be flagged `conflict`.
    /// `history` holds the whole revisions of at least the heads and their `bases`.
    public func resolve(heads: [Revision], history: RevisionHistory) -> (merged: Revision?, conflict: Bool) {
        guard heads.count > 1, let latest = heads.max(by: Revision.isEarlier) else { return (nil, false) }
        let recordID = latest.recordID
        func revision(_ fields: RevisionFields?) -> Revision {
            Revision(
                recordID: recordID, parents: heads.map(\.id), fields: fields, hlc: latest.hlc, device: latest.device)
        }
        let edits = heads.filter { !$0.isTombstone }
        if edits.count <= 1 { return (revision(edits.first?.fields), false) }
        switch strategy {
        case .askUser:
            return (nil, true)
        case .serverWins:
            return (revision(edits.min(by: Revision.isEarlier)?.fields), false)
        case .clientWins:
            return (revision(edits.max(by: Revision.isEarlier)?.fields), false)
        case .merge:
            // `edits` are not tombstones, so every one has fields.
            guard let (fields, conflict) = Self.mergeFields(edits, history: history) else {
                return (revision(nil), false)
            }
            return (revision(fields), conflict)
        }
    }

    /// `resolve` with every revision of the record read whole.
    public func resolve(heads: [Revision], history: [Revision]) -> (merged: Revision?, conflict: Bool) {
        resolve(heads: heads, history: RevisionHistory(history))
    }

    /// Folds the edits, in rev-id order, into one set of fields.
    /// `edits` are two or more revisions that are not tombstones; nil when none has fields.
    static func mergeFields(_ edits: [Revision], history: RevisionHistory) -> (RevisionFields, Bool)? {
        let ordered = edits.sorted { $0.id < $1.id }.compactMap { edit in FieldMerge.Side(edit).map { (edit.id, $0) } }
        guard let (firstID, first) = ordered.first else { return nil }
        var current = first
        var members = [firstID]
        var conflict = false
        for (nextID, next) in ordered.dropFirst() {
            let base = history.mergeBase(of: members, and: nextID)?.fields
            let (fields, conflicted) = FieldMerge.merge(base: base, ours: current, theirs: next)
            conflict = conflict || conflicted
            current = FieldMerge.Side(fields: fields, stamp: max(current.stamp, next.stamp), label: current.label)
            members.append(nextID)
        }
        return (current.fields, conflict)
    }
}
