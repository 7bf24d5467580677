import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

/// What applying fetched revisions (SYNC-FORMAT rule 8) reads of a note's history.
struct SyncApplyTests {
    /// The resolver of applies that must not merge.
    static func noMerge(_ heads: [Revision], _ history: RevisionHistory) -> (merged: Revision?, conflict: Bool) {
        Issue.record("no merge expected, got \(heads.count) heads")
        return (nil, false)
    }

    /// A note of five revisions on A, received by B, where every revision but the head is
    /// unreadable on B: an apply that parsed one of them would throw.
    static func noteWithOlderRevisionsDamagedOnB() throws -> (a: TestStore, b: TestStore, note: Note) {
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
        return (a, b, note)
    }

    /// An edit made on the note's head reaches the other device by reading that one revision:
    /// parsing every older revision (each a copy of the body) made each edit of a 20 MB note a
    /// device received slower and larger than the last (`cloudnotes-bench
    /// --large-note-propagation`). Here the older revisions are unreadable on B, so an apply
    /// that still parsed them would throw.
    @Test func anEditOnTheHeadIsAppliedWithoutReadingOlderRevisions() throws {
        let (a, b, note) = try Self.noteWithOlderRevisionsDamagedOnB()

        let edited = try a.store.update(note.id) { $0.body += "line 6\n" }
        let newest = try #require(try a.store.revisions(of: note.id).first { $0.id == edited.headRev })
        let applied = try b.store.applyFetchedRevisions([newest], engineState: "two", resolve: Self.noMerge)

        #expect(applied.changed == [note.id])
        let received = try #require(try b.store.note(note.id))
        #expect(received.body == "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\n")
        #expect(received.headRev == edited.headRev)
        #expect(received.syncState == .synced)
    }

    /// A merge of two heads of a large note reads those heads and their common ancestor, not
    /// every body the note ever had (`RevisionHistory`). Every other revision is unreadable on B
    /// here, so a merge that still parsed the whole history would throw.
    @Test func aMergeReadsOnlyTheHeadsAndTheirBase() throws {
        let (a, b, note) = try Self.noteWithOlderRevisionsDamagedOnB()
        let base = try #require(note.headRev)
        // Concurrent edits of different lines on A and B.
        let onA = try a.store.update(note.id) { $0.body = $0.body.replacingOccurrences(of: "line 1", with: "LINE 1") }
        _ = try b.store.update(note.id) { $0.body += "line 6\n" }
        let fetched = try #require(try a.store.revisions(of: note.id).first { $0.id == onA.headRev })

        var mergedOn: String?
        let applied = try b.store.applyFetchedRevisions([fetched], engineState: "two") { heads, history in
            let from = history.mergeBase(of: [heads[0].id], and: heads[1].id)
            mergedOn = from?.id
            guard let baseBody = from?.fields?.body, var fields = heads[1].fields else { return (nil, true) }
            fields.body =
                TextMerge.merge(
                    base: baseBody, ours: heads[0].fields?.body ?? "", theirs: fields.body, oursLabel: "0",
                    theirsLabel: "1"
                ).text
            let latest = heads.max(by: Revision.isEarlier)!
            return (
                Revision(
                    recordID: note.id, parents: heads.map(\.id), fields: fields, hlc: latest.hlc, device: latest.device),
                false
            )
        }

        #expect(mergedOn == base)
        #expect(applied.merged == 1)
        let merged = try #require(try b.store.note(note.id))
        #expect(merged.body == "LINE 1\nline 2\nline 3\nline 4\nline 5\nline 6\n")
        #expect(merged.syncState == .pending)
    }
}
