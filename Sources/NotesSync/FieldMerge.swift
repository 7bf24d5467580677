import Foundation
import NotesCore

/// Field-by-field three-way merge of two versions of a note (SYNC-FORMAT rule 8, `merge`).
///
/// Against the common ancestor: a field changed on one side takes that side; changed on both,
/// the later (HLC, device) side's value (two different new titles also flag a conflict). Tags merge as sets. The body merges line by line with
/// `TextMerge` (labels: the writers' device ids, ours first, ours being the lower rev id).
/// `modifiedAt` is the later of the two. Edit beats delete for the trash too: a side that moved
/// the note to the trash loses against a side that changed its content.
/// Strings compare byte for byte, never by canonical equivalence.
enum FieldMerge {
    struct Side {
        var fields: RevisionFields
        /// (HLC, device, rev id) as comparable text-free parts.
        var stamp: Stamp
        var label: String

        init(fields: RevisionFields, stamp: Stamp, label: String) {
            self.fields = fields
            self.stamp = stamp
            self.label = label
        }

        /// The side of an edit; nil for a tombstone, which has no fields to merge.
        init?(_ revision: Revision) {
            guard let fields = revision.fields else { return nil }
            self.init(
                fields: fields, stamp: Stamp(hlc: revision.hlc, device: revision.device, id: revision.id),
                label: revision.device)
        }
    }

    struct Stamp: Comparable {
        var hlc: HLC
        var device: String
        var id: String

        static func < (a: Stamp, b: Stamp) -> Bool { (a.hlc, a.device, a.id) < (b.hlc, b.device, b.id) }
    }

    static func merge(base: RevisionFields?, ours: Side, theirs: Side) -> (RevisionFields, Bool) {
        let a = ours.fields
        let b = theirs.fields
        let later = ours.stamp > theirs.stamp ? a : b
        func pick<T>(_ value: (RevisionFields) -> T, _ same: (T, T) -> Bool) -> T {
            if same(value(a), value(b)) { return value(a) }
            if let base {
                if same(value(a), value(base)) { return value(b) }
                if same(value(b), value(base)) { return value(a) }
            }
            return value(later)
        }
        var merged = a
        merged.title = pick(\.title, bytesEqual)
        merged.zone = pick(\.zone, bytesEqual)
        merged.isFavorite = pick(\.isFavorite, ==)
        merged.createdAt = pick(\.createdAt, ==)
        merged.modifiedAt = max(a.modifiedAt, b.modifiedAt)
        merged.deletedAt = pick(\.deletedAt, ==)
        // Byte for byte, as titles: canonically equivalent texts are not the same value.
        merged.frontMatter = pick(\.frontMatter) { $0.map { Array($0.utf8) } == $1.map { Array($0.utf8) } }
        merged.tags = mergeTags(base: base?.tags, a.tags, b.tags)
        merged.attachments = mergeAttachments(
            base: base?.attachments, a.attachments, b.attachments, oursIsLater: ours.stamp > theirs.stamp)
        let text = TextMerge.merge(
            base: base?.body ?? "", ours: a.body, theirs: b.body, oursLabel: ours.label, theirsLabel: theirs.label)
        merged.body = text.text
        if merged.deletedAt != nil, base?.deletedAt == nil {
            // Edit beats delete: the side that did not trash the note changed its content.
            let keeper = a.deletedAt == nil ? a : b
            if keeper.deletedAt == nil, contentChanged(keeper, from: base) { merged.deletedAt = nil }
        }
        // Both sides renamed the note, differently: the later title is taken (the same on every
        // device), and the note is flagged so the other title is not dropped silently: it is
        // one of the merge's parents, shown by the resolver and `conflicts`.
        let titleConflict =
            !bytesEqual(a.title, b.title)
            && !(base.map { bytesEqual(a.title, $0.title) || bytesEqual(b.title, $0.title) } ?? false)
        return (merged, text.hasConflicts || titleConflict)
    }

    /// Three-way set merge: a tag stays if both keep it, or if the side that has it added it.
    static func mergeTags(base: [String]?, _ a: [String], _ b: [String]) -> [String] {
        let setA = Set(a.map(Key.init))
        let setB = Set(b.map(Key.init))
        let setBase = Set((base ?? []).map(Key.init))
        let kept = setA.union(setB).filter { tag in
            (setA.contains(tag) && setB.contains(tag)) || (setA.contains(tag) && !setBase.contains(tag))
                || (setB.contains(tag) && !setBase.contains(tag))
        }
        return Note.normalizedTags(kept.map(\.text))
    }

    /// Three-way merge of attachments, name by name (SYNC-FORMAT rule 15): an attachment
    /// changed (added, replaced or removed) on one side takes that side; changed on both sides
    /// differently, the later side's. Without an ancestor, the union (the later side's on a clash).
    static func mergeAttachments(base: [Attachment]?, _ a: [Attachment], _ b: [Attachment], oursIsLater: Bool)
        -> [Attachment]
    {
        func byName(_ list: [Attachment]) -> [Key: Attachment] {
            Dictionary(list.map { (Key(text: $0.name), $0) }, uniquingKeysWith: { first, _ in first })
        }
        let (mapA, mapB, mapBase) = (byName(a), byName(b), byName(base ?? []))
        var merged: [Attachment] = []
        for name in Set(mapA.keys).union(mapB.keys) {
            let (x, y, ancestor) = (mapA[name], mapB[name], mapBase[name])
            let chosen: Attachment?
            if x == y {
                chosen = x
            } else if base == nil, x == nil || y == nil {
                chosen = x ?? y  // no common ancestor: an attachment only one side has is kept
            } else if base != nil, x == ancestor {
                chosen = y
            } else if base != nil, y == ancestor {
                chosen = x
            } else {
                chosen = oursIsLater ? x : y
            }
            if let chosen { merged.append(chosen) }
        }
        return Attachment.sorted(merged)
    }

    static func contentChanged(_ fields: RevisionFields, from base: RevisionFields?) -> Bool {
        guard let base else { return true }
        return !bytesEqual(fields.title, base.title) || !bytesEqual(fields.body, base.body)
            || fields.tags.count != base.tags.count || !zip(fields.tags, base.tags).allSatisfy(bytesEqual)
            || fields.attachments != base.attachments
    }

    static func bytesEqual(_ x: String, _ y: String) -> Bool { x.utf8.elementsEqual(y.utf8) }

    /// A string hashed and compared by its bytes.
    struct Key: Hashable {
        var text: String
        static func == (a: Key, b: Key) -> Bool { bytesEqual(a.text, b.text) }
        func hash(into hasher: inout Hasher) { hasher.combine(Array(text.utf8)) }
    }
}
