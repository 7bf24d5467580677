import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import Testing

@Suite("Conflicts between devices (SYNC-FORMAT rule 8)")
struct ConflictTests {
    /// A note on both devices, then concurrent edits on each.
    func twoDevices(_ strategy: ConflictStrategy = .merge, body: String = "one\ntwo\nthree\n") async throws -> (
        TestDevice, TestDevice, Note
    ) {
        let (folder, _) = TestFolder.memory()
        let a = try TestDevice("a", folder: folder, strategy: strategy)
        let b = try TestDevice("b", folder: folder, strategy: strategy)
        let note = try a.store.create(title: "shared", body: body)
        try await quiesce([a, b])
        return (a, b, note)
    }

    @Test("edits of different lines merge cleanly; both devices compute the same merge revision")
    func cleanMergeSameRevision() async throws {
        let (a, b, note) = try await twoDevices()
        _ = try a.store.update(note.id) { $0.body = "ONE\ntwo\nthree\n" }
        _ = try b.store.update(note.id) { $0.body = "one\ntwo\nTHREE\n" }
        _ = try await a.engine.sendChanges()
        _ = try await b.engine.sendChanges()
        _ = try await a.engine.fetchChanges()
        _ = try await b.engine.fetchChanges()
        let onA = try #require(try a.store.note(note.id))
        let onB = try #require(try b.store.note(note.id))
        #expect(onA.body == "ONE\ntwo\nTHREE\n")
        #expect(onA.headRev == onB.headRev)
        #expect(onA.syncState == .pending)
        try await quiesce([a, b])
        #expect(try a.store.note(note.id)?.syncState == .synced)
        #expect(try a.store.conflictCount() == 0)
    }

    @Test("overlapping edits keep both sides between markers labelled with device ids, flagged conflict")
    func overlappingEdits() async throws {
        let (a, b, note) = try await twoDevices()
        _ = try a.store.update(note.id) { $0.body = "one\nfrom a\nthree\n" }
        _ = try b.store.update(note.id) { $0.body = "one\nfrom b\nthree\n" }
        try await quiesce([a, b])
        let merged = try #require(try a.store.note(note.id))
        #expect(merged.body.contains("from a\n") && merged.body.contains("from b\n"))
        #expect(merged.body.contains("<<<<<<< ") && merged.body.contains(">>>>>>> "))
        let labels = [a.store.deviceID, b.store.deviceID]
        #expect(labels.allSatisfy { merged.body.contains($0) })
        #expect(merged.syncState == .conflict)
        #expect(try b.store.note(note.id)?.syncState == .conflict)
        #expect(try a.store.conflictCount() == 1)
        // Resolving on B closes it everywhere; both versions stay in history.
        try b.store.resolveConflict(note.id, keep: .mine)
        try await quiesce([a, b])
        #expect(try a.store.note(note.id)?.body == "one\nfrom b\nthree\n")
        #expect(try a.store.conflictCount() == 0)
        let bodies = try a.store.history(note.id).compactMap(\.fields?.body)
        #expect(bodies.contains("one\nfrom a\nthree\n"))
    }

    @Test("a device that receives a flagged merge and an edit on top of it in one fetch flags the note")
    func mergeAndEditOnTopInOneFetch() async throws {
        let (folder, _) = TestFolder.memory()
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        let c = try TestDevice("c", folder: folder)
        let note = try a.store.create(title: "shared", body: "one\ntwo\nthree\n")
        try await quiesce([a, b, c])
        _ = try a.store.update(note.id) { $0.body = "one\nfrom a\nthree\n" }
        _ = try b.store.update(note.id) { $0.body = "one\nfrom b\nthree\n" }
        _ = try await b.engine.sendChanges()
        _ = try await a.engine.sendChanges()
        _ = try await a.engine.fetchChanges()
        #expect(try a.store.note(note.id)?.syncState == .conflict)
        // Typing on below the markers keeps them, and the flag (NoteStore+ConflictFlag.swift).
        _ = try a.store.update(note.id) { $0.body += "typed on\n" }
        #expect(try a.store.note(note.id)?.syncState == .conflict)
        _ = try await a.engine.sendChanges()
        // C has seen none of it: one fetch brings both edits, the merge and the edit on top.
        _ = try await c.engine.fetchChanges()
        let onC = try #require(try c.store.note(note.id))
        #expect(onC.body.hasSuffix("typed on\n") && onC.body.contains("<<<<<<< "))
        #expect(onC.syncState == .conflict, "markers without the flag on the device that received them")
        #expect(try c.store.conflictCount() == 1)
        // Resolved on C, then an edit that brings marker-like text back is no conflict of old.
        try c.store.resolveConflict(note.id, keep: .mine)
        #expect(try c.store.note(note.id)?.syncState != .conflict)
    }

    @Test("fields: one side's change wins, both changed takes the later, tags merge as sets")
    func fieldMerge() async throws {
        let (a, b, note) = try await twoDevices()
        _ = try a.store.update(note.id) {
            $0.tags = ["x", "from-a"]
            $0.isFavorite = true
        }
        b.clock.advance(by: 10)
        _ = try b.store.update(note.id) {
            $0.tags = ["x", "from-b"]
            $0.title = "renamed on b"
        }
        try await quiesce([a, b])
        let merged = try #require(try a.store.note(note.id))
        #expect(merged.tags == ["from-a", "from-b", "x"])
        #expect(merged.isFavorite)
        #expect(merged.title == "renamed on b")
    }

    @Test("edit beats delete: a purge against an edit brings the note back, the tombstone stays in history")
    func editBeatsDelete() async throws {
        let (a, b, note) = try await twoDevices()
        try a.store.purge(note.id)
        _ = try b.store.update(note.id) { $0.body = "still needed\n" }
        try await quiesce([a, b])
        let back = try #require(try a.store.note(note.id))
        #expect(back.body == "still needed\n")
        #expect(try a.store.history(note.id).contains { $0.isTombstone })
    }

    @Test("edit beats trash: moving to the trash against a content edit keeps the note out of the trash")
    func editBeatsTrash() async throws {
        let (a, b, note) = try await twoDevices()
        _ = try a.store.trash(note.id)
        _ = try b.store.update(note.id) { $0.body = "edited\n" }
        try await quiesce([a, b])
        let back = try #require(try a.store.note(note.id))
        #expect(!back.isTrashed)
        #expect(back.body == "edited\n")
    }

    @Test(
        "serverWins takes the earlier edit, clientWins the later, askUser keeps both heads",
        arguments: [ConflictStrategy.serverWins, .clientWins, .askUser])
    func otherStrategies(_ strategy: ConflictStrategy) async throws {
        let (a, b, note) = try await twoDevices(strategy)
        _ = try a.store.update(note.id) { $0.body = "early\n" }
        b.clock.advance(by: 1000)
        _ = try b.store.update(note.id) { $0.body = "late\n" }
        try await quiesce([a, b])
        let onA = try #require(try a.store.note(note.id))
        switch strategy {
        case .serverWins:
            #expect(onA.body == "early\n")
        case .clientWins:
            #expect(onA.body == "late\n")
        default:
            #expect(onA.syncState == .conflict)
            #expect(try a.store.conflictSides(note.id).compactMap(\.fields?.body) == ["early\n", "late\n"])
            try a.store.resolveConflict(note.id, keep: .both)
            try await quiesce([a, b])
            #expect(try b.store.note(note.id)?.body == "early\n")
            #expect(try b.store.conflictCount() == 0)
            #expect(try b.store.search("late").hits.count == 1)
        }
        #expect(try a.store.history(note.id).compactMap(\.fields?.body).contains("late\n"))
        #expect(try a.store.history(note.id).compactMap(\.fields?.body).contains("early\n"))
    }

    @Test("keeping both: the conflicted copy carries the other version's attachments, on every device")
    func keepBothKeepsTheOtherSidesAttachments() async throws {
        let (a, b, note) = try await twoDevices(.askUser)
        _ = try a.store.update(note.id) { $0.body = "mine\n" }
        b.clock.advance(by: 1000)
        let source = b.directory.appendingPathComponent("map.txt")
        try Data("the map".utf8).write(to: source)
        let map = try b.store.addAttachmentContent(fromFile: source.path, name: "map.txt", maxBytes: 1 << 20)
        _ = try b.store.update(note.id) {
            $0.body = "theirs\n"
            $0.attachments = [map]
        }
        try await quiesce([a, b])
        let (kept, copy) = try a.store.resolveConflict(note.id, keep: .both)
        #expect(kept.body == "mine\n" && kept.attachments.isEmpty)
        let conflicted = try #require(copy)
        #expect(conflicted.body == "theirs\n")
        #expect(conflicted.attachments == [map])
        try await quiesce([a, b])
        #expect(try b.store.note(conflicted.id)?.attachments == [map])
        #expect(try String(contentsOfFile: b.store.attachmentContentPath(map.sha256), encoding: .utf8) == "the map")
    }

    @Test("the resolver is symmetric and idempotent: head order does not matter, a merge of equal edits is no conflict")
    func resolverProperties() throws {
        let id = UUID()
        let baseNote = Note(id: id, title: "t", body: "a\nb\nc\nd\ne\n", createdAt: Date(millisecondsSince1970: 1))
        let base = Revision(
            recordID: id, parents: [], fields: RevisionFields(note: baseNote), hlc: HLC(millis: 1),
            device: "aaaaaaaaaaaaaaaa")
        func edit(_ body: String, _ device: String, _ ms: Int64, favorite: Bool = false) -> Revision {
            var note = baseNote
            note.body = body
            note.isFavorite = favorite
            return Revision(
                recordID: id, parents: [base.id], fields: RevisionFields(note: note), hlc: HLC(millis: ms),
                device: device)
        }
        let x = edit("a\nX\nc\nd\ne\n", "aaaaaaaaaaaaaaaa", 5)
        let y = edit("a\nb\nc\nY\ne\n", "bbbbbbbbbbbbbbbb", 6)
        let resolver = ConflictResolver(strategy: .merge)
        let one = resolver.resolve(heads: [x, y], history: [base, x, y])
        let two = resolver.resolve(heads: [y, x], history: [y, base, x])
        #expect(one.merged == two.merged)
        #expect(one.merged?.fields?.body == "a\nX\nc\nY\ne\n")
        #expect(!one.conflict)
        let same = edit("a\nX\nc\nd\ne\n", "bbbbbbbbbbbbbbbb", 7, favorite: true)
        let identical = resolver.resolve(heads: [x, same], history: [base, x, same])
        #expect(identical.merged?.fields?.body == "a\nX\nc\nd\ne\n")
        #expect(identical.merged?.fields?.isFavorite == true)
        #expect(!identical.conflict)
    }
}
