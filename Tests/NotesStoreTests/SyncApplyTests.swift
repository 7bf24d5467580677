import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

/// What applying fetched revisions (SYNC-FORMAT rule 8) reads of a note's history.
struct SyncApplyTests {
    /// The resolver of applies that must not merge.
    static func noMerge(_ heads: [Revision], _ history: [Revision]) -> (merged: Revision?, conflict: Bool) {
        Issue.record("no merge expected, got \(heads.count) heads")
        return (nil, false)
    }

    /// An edit made on the note's head reaches the other device by reading that one revision:
    /// parsing every older revision (each a copy of the body) made each edit of a 20 MB note a
    /// device received slower and larger than the last (`cloudnotes-bench
    /// --large-note-propagation`). Here the older revisions are unreadable on B, so an apply
    /// that still parsed them would throw.
    @Test func anEditOnTheHeadIsAppliedWithoutReadingOlderRevisions() throws {
        let a = try TestStore()
        let b = try TestStore()
        var note = try a.store.create(title: "large", body: "line 1\nline 2\n")
        for n in 3...5 { note = try a.store.update(note.id) { $0.body += "line \(n)\n" } }
        _ = try b.store.applyFetchedRevisions(a.store.revisions(of: note.id), engineState: "one", resolve: Self.noMerge)
        let head = try #require(try b.store.note(note.id)?.headRev)
        #expect(head == note.headRev)
        try b.store.write { db in
            try db.execute(
                sql: "UPDATE revision SET fields = '{damaged' WHERE recordID = ? AND id != ?",
                arguments: [note.id.lowercasedString, head])
        }

        let edited = try a.store.update(note.id) { $0.body += "line 6\n" }
        let newest = try #require(try a.store.revisions(of: note.id).first { $0.id == edited.headRev })
        let applied = try b.store.applyFetchedRevisions([newest], engineState: "two", resolve: Self.noMerge)

        #expect(applied.changed == [note.id])
        let received = try #require(try b.store.note(note.id))
        #expect(received.body == "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\n")
        #expect(received.headRev == edited.headRev)
        #expect(received.syncState == .synced)
    }
}
