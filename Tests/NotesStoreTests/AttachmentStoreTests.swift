import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

/// A note's attachments in the store (SYNC-FORMAT rule 15, migration `attachments-1`): part of
/// its fields and revisions, mirrored in the `attachment` table, content as files.
@Suite("Attachments in the store")
struct AttachmentStoreTests {
    func file(_ text: String, in t: TestStore) throws -> String {
        let url = t.directory.appendingPathComponent("source-\(UUID().uuidString)")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("attaching keeps the content as a file named by its SHA-256, survives reopening, and is a new revision")
    func attachAndReopen() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "n", body: "b")
        let attachment = try t.store.addAttachmentContent(
            fromFile: try file("hello attachment", in: t), name: "hello.txt", maxBytes: 1 << 20)
        #expect(attachment.size == 16)
        let path = t.store.attachmentContentPath(attachment.sha256)
        #expect(path.hasSuffix("/attachments/\(attachment.sha256.prefix(2))/\(attachment.sha256)"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello attachment")
        let saved = try t.store.attach(note.id, [attachment])
        #expect(saved.attachments == [attachment])
        #expect(saved.headRev != note.headRev)
        let reopened = try NoteStore(directory: t.directory)
        #expect(try reopened.note(note.id)?.attachments == [attachment])
        let history = try reopened.history(note.id)
        #expect(history.first?.fields?.attachments == [attachment])
        #expect(history.last?.fields?.attachments == [])
    }

    @Test("a notebook moved into a shared place keeps its notes' attachments, in the note and its new revision")
    func movingIntoASharedPlaceKeepsAttachments() throws {
        let t = try TestStore()
        let zone = try t.store.createNotebook(named: "Trip").zone
        let note = try t.store.create(title: "Plan", body: "b", zone: zone)
        let map = try t.store.addAttachmentContent(fromFile: try file("the map", in: t), name: "map.txt", maxBytes: 100)
        try t.store.attach(note.id, [map])
        let shared = NotebookSlug.sharedZone(share: UUID().lowercasedString)
        #expect(try t.store.moveNotebook(zone, intoShared: shared) == 1)
        let moved = try #require(try t.store.note(note.id))
        #expect(moved.zone == shared)
        #expect(moved.attachments == [map])
        #expect(try t.store.history(note.id).first?.fields?.attachments == [map])
    }

    @Test("a name the note already has is refused unless replacing; detach removes it and history keeps it")
    func duplicateReplaceDetach() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "n", body: "")
        let one = try t.store.addAttachmentContent(fromFile: try file("one", in: t), name: "a.txt", maxBytes: 100)
        let two = try t.store.addAttachmentContent(fromFile: try file("two", in: t), name: "a.txt", maxBytes: 100)
        try t.store.attach(note.id, [one])
        #expect(throws: StoreError.self) { try t.store.attach(note.id, [two]) }
        #expect(try t.store.note(note.id)?.attachments == [one])
        #expect(try t.store.attach(note.id, [two], replacing: true).attachments == [two])
        #expect(try t.store.detach(note.id, name: "a.txt").attachments.isEmpty)
        #expect(throws: StoreError.self) { try t.store.detach(note.id, name: "a.txt") }
        #expect(try t.store.history(note.id).compactMap { $0.fields?.attachments.first?.sha256 }.contains(one.sha256))
        let rows = try t.store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM attachment") }
        #expect(rows == 0)
    }

    @Test("a file over the limit, a bad name and a missing file are refused and nothing is kept")
    func refusals() throws {
        let t = try TestStore()
        let big = try file(String(repeating: "x", count: 1000), in: t)
        #expect(throws: StoreError.self) { try t.store.addAttachmentContent(fromFile: big, name: "b", maxBytes: 999) }
        #expect(throws: StoreError.self) {
            try t.store.addAttachmentContent(fromFile: big, name: "a/b", maxBytes: 9999)
        }
        #expect(throws: StoreError.self) {
            try t.store.addAttachmentContent(fromFile: t.directory.path + "/nope", name: "n", maxBytes: 9999)
        }
        let kept =
            FileManager.default.enumerator(atPath: t.directory.appendingPathComponent("attachments").path)?
            .allObjects.compactMap { $0 as? String }.filter { $0.count > 60 } ?? []
        #expect(kept.isEmpty, "\(kept)")
    }

    @Test("received content whose SHA-256 does not match is never kept")
    func receiveChecksHash() throws {
        let t = try TestStore()
        var hasher = ContentHasher()
        hasher.update(Array("right".utf8))
        let sha = hasher.finalize()
        #expect(throws: StoreError.self) {
            try t.store.receiveAttachmentContent(sha256: sha, size: 5) { append in try append(Array("wrong".utf8)[...])
            }
        }
        #expect(!t.store.hasAttachmentContent(sha256: sha))
        try t.store.receiveAttachmentContent(sha256: sha, size: 5) { append in try append(Array("right".utf8)[...]) }
        #expect(t.store.hasAttachmentContent(sha256: sha))
        var pieces: [[UInt8]] = []
        #expect(try t.store.readAttachmentContent(sha256: sha, chunkSize: 2) { pieces.append(Array($0)) })
        #expect(pieces == [Array("ri".utf8), Array("gh".utf8), Array("t".utf8)])
    }

    @Test("fields without attachments hash as before: no attachments key, so old revision ids stand")
    func oldRevisionIDsStand() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "plain", body: "no files")
        let fields = try #require(try t.store.history(note.id).first?.fields)
        #expect(!fields.json.canonicalString.contains("attachments"))
        #expect(
            Revision.computeID(recordID: note.id, parents: [], fields: fields) == note.headRev)
    }
}
