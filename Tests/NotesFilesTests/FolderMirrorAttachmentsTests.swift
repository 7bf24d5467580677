import Foundation
import NotesCore
import NotesFiles
import NotesStore
import NotesSync
import Testing

/// A file put in a note's attachment folder by another program becomes an attachment of the
/// note; the mirror's own copies of the note's attachments are not read back as new ones.
@Suite struct FolderMirrorAttachmentsTests {
    @Test func aFileAddedBesideANoteIsAttachedOnceAndTheMirrorsOwnCopiesAreNotReadBack() throws {
        let fixture = try MirrorFixture("attachments")
        defer { fixture.remove() }
        let (folder, store) = (fixture.folder, fixture.store)
        let (home, mirror) = (fixture.home, try fixture.mirror())
        let plan = try store.create(title: "Plan", body: "see the photo")
        // An attachment made in the store is written beside the note, and not read back.
        let source = home.appendingPathComponent("doc.txt").path
        try Data("from the store".utf8).write(to: URL(fileURLWithPath: source))
        try store.attach(
            plan.id, [try store.addAttachmentContent(fromFile: source, name: "doc.txt", maxBytes: 1 << 20)])
        #expect(try mirror.sync().toFolder == ["wrote notes/Plan.md"])
        #expect(FileManager.default.contents(atPath: folder + "/notes/Plan/doc.txt") == Data("from the store".utf8))

        // Another program saves a photo there (and leaves an editor's swap file).
        let photo = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
        try photo.write(to: URL(fileURLWithPath: folder + "/notes/Plan/photo.png"))
        try Data("swap".utf8).write(to: URL(fileURLWithPath: folder + "/notes/Plan/.photo.png.swp"))
        let read = try mirror.sync()
        #expect(read.fromFolder == ["attached notes/Plan/photo.png"], "\(read.fromFolder)")
        let note = try #require(try store.note(plan.id))
        #expect(note.attachments.map(\.name) == ["doc.txt", "photo.png"])
        var content: [UInt8] = []
        let photoSHA = try #require(note.attachment(named: "photo.png")?.sha256)
        #expect(try store.readAttachmentContent(sha256: photoSHA, chunkSize: 1024) { content += $0 })
        #expect(content == Array(photo))
        #expect(note.body == "see the photo")

        let again = try mirror.sync()
        #expect(again.fromFolder.isEmpty, "\(again.fromFolder)")
        #expect(try store.note(plan.id)?.attachments.count == 2)
    }
}
