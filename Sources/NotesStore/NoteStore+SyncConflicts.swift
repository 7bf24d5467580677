import Foundation
import GRDB
import NotesCore

/// Which side a user keeps when resolving a conflict (SYNC-FORMAT rule 8, `askUser`).
public enum ConflictChoice: String, Sendable, Equatable, CaseIterable {
    /// This device's version.
    case mine
    /// The other device's version.
    case theirs
    /// This device's version stays the note; the other becomes a new note beside it.
    case both
}

extension NoteStore {
    /// Notes flagged `conflict`, most recently modified first.
    public func conflictedNotes() throws -> [Note] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM note WHERE syncState = 'conflict' ORDER BY modifiedAt DESC, id"
            ).map(Self.note(from:))
        }
    }

    /// The versions a note's conflict is between, in (HLC, device) order: its heads when there
    /// are several (`askUser`), or the parents of a merge that kept conflict markers or was
    /// flagged (two new titles). Empty when the note has no conflict.
    public func conflictSides(_ id: UUID) throws -> [Revision] {
        try read { db in try Self.conflictSides(id.lowercasedString, db).sides }
    }

    /// Reads the heads and the sides whole, and only the graph of the rest (a large note's
    /// older bodies are not read, as in `recompute`).
    static func conflictSides(_ record: String, _ db: Database) throws -> (sides: [Revision], heads: [Revision]) {
        let graph = try fetchGraph(record, db)
        let headIDs = RevisionHistory(parents: graph, loaded: []).headIDs
        let heads = try headIDs.compactMap { try fetchRevision($0, of: record, db) }.sorted(by: Revision.isEarlier)
        if heads.count > 1 { return (heads, heads) }
        guard let head = heads.first else { return ([], heads) }
        // A merge with markers, or one the merge flagged (two new titles): the note row says so.
        let flagged =
            try String.fetchOne(db, sql: "SELECT syncState FROM note WHERE id = ?", arguments: [record]) == "conflict"
        var merge = head
        if head.parents.count <= 1 {
            // Typed on after the merge with its markers kept: the sides are the merge's.
            guard flagged, let id = mergeAncestor(of: head.id, graph: graph),
                let found = try fetchRevision(id, of: record, db)
            else { return ([], heads) }
            merge = found
        } else if !(isConflictedMerge(head) || flagged) {
            return ([], heads)
        }
        return (
            try merge.parents.compactMap { try fetchRevision($0, of: record, db) }.sorted(by: Revision.isEarlier), heads
        )
    }

    /// Resolves a note's conflict with one side (a local edit whose parents are all the heads,
    /// so every device sees the conflict closed). Returns the note, and the copy `both` makes.
    /// Both sides stay in history.
    @discardableResult
    public func resolveConflict(_ id: UUID, keep choice: ConflictChoice) throws -> (note: Note, copy: Note?) {
        try write { db in
            let record = id.lowercasedString
            let (sides, heads) = try Self.conflictSides(record, db)
            guard sides.count > 1 else { throw StoreError(.invalidInput, "note \(record) has no conflict to resolve") }
            let mine = sides.last { $0.device == deviceID } ?? sides[0]
            guard let theirs = sides.last(where: { $0.id != mine.id }) else {
                throw StoreError(.invalidInput, "note \(record) has no conflict to resolve")
            }
            let kept = choice == .theirs ? theirs : mine
            guard var fields = kept.fields else {
                throw StoreError(.invalidInput, "the chosen version of note \(record) is a deletion")
            }
            fields.modifiedAt = max(fields.modifiedAt, clock().millisecondsSince1970)
            let revision = Revision(
                recordID: id, parents: heads.map(\.id), fields: fields, hlc: try nextHLC(db), device: deviceID)
            try insert(revision, db)
            try enqueue(revision, zone: fields.zone, kind: "save", db)
            try materialize(revision, conflict: false, db)
            guard let note = try Self.fetchNote(db, id: id) else {
                throw StoreError(.notFound, "note \(record) vanished while resolving")
            }
            var copy: Note?
            if choice == .both, let other = theirs.fields {
                let now = clock()
                copy = try save(
                    Note(
                        zone: other.zone, title: other.title + " (conflicted copy)", body: other.body,
                        tags: other.tags, isFavorite: other.isFavorite, createdAt: now, modifiedAt: now,
                        frontMatter: other.frontMatter, attachments: other.attachments),
                    previous: nil, db)
            }
            return (note, copy)
        }
    }
}
