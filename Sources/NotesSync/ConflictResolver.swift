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
    public func resolve(heads: [Revision], history: [Revision]) -> (merged: Revision?, conflict: Bool) {
        guard heads.count > 1, let latest = heads.max(by: Self.isEarlier) else { return (nil, false) }
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
            return (revision(edits.min(by: Self.isEarlier)!.fields), false)
        case .clientWins:
            return (revision(edits.max(by: Self.isEarlier)!.fields), false)
        case .merge:
            let (fields, conflict) = Self.mergeFields(edits, history: history)
            return (revision(fields), conflict)
        }
    }

    /// Folds the edits, in rev-id order, into one set of fields.
    static func mergeFields(_ edits: [Revision], history: [Revision]) -> (RevisionFields, Bool) {
        let index = Dictionary(history.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ordered = edits.sorted { $0.id < $1.id }
        var current = FieldMerge.Side(ordered[0])
        var members = [ordered[0].id]
        var conflict = false
        for next in ordered.dropFirst() {
            let base = commonAncestor(members, next.id, index: index)?.fields
            let (fields, conflicted) = FieldMerge.merge(base: base, ours: current, theirs: FieldMerge.Side(next))
            conflict = conflict || conflicted
            current = FieldMerge.Side(
                fields: fields, stamp: max(current.stamp, FieldMerge.Side(next).stamp), label: current.label)
            members.append(next.id)
        }
        return (current.fields, conflict)
    }

    /// The best common ancestor of `members` (together) and `other`: among the common
    /// ancestors that are no other common ancestor's ancestor, the latest by (HLC, device, id).
    static func commonAncestor(_ members: [String], _ other: String, index: [String: Revision]) -> Revision? {
        let common = ancestors(of: members, index: index).intersection(ancestors(of: [other], index: index))
        // Common ancestors form an ancestor-closed set, so its maximal elements are those that
        // are no member's parent.
        let parentsInCommon = Set(common.flatMap { index[$0]?.parents ?? [] })
        return common.subtracting(parentsInCommon).compactMap { index[$0] }.max(by: isEarlier)
    }

    static func ancestors(of ids: [String], index: [String: Revision]) -> Set<String> {
        var seen = Set<String>()
        var stack = ids
        while let id = stack.popLast() {
            guard seen.insert(id).inserted, let revision = index[id] else { continue }
            stack += revision.parents
        }
        return seen.filter { index[$0] != nil }
    }

    /// The total order of rule 7: (HLC, device), then the revision id so no two compare equal.
    public static func isEarlier(_ a: Revision, _ b: Revision) -> Bool {
        (a.hlc, a.device, a.id) < (b.hlc, b.device, b.id)
    }
}
