import Foundation
import NotesCore
import NotesStore
import NotesTestSupport
import Testing

@testable import NotesRuntime

/// `Effect.openAttachment`: the program named by `$OPENER` gets a copy of the content under
/// the attachment's name; content not on this device is a clear error.
@Suite struct AttachmentOpenerTests {
    @Test func theOpenerGetsAFileNamedAsTheAttachmentWithItsContent() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-open-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try NoteStore(directory: directory.appendingPathComponent("data"))
        let source = directory.appendingPathComponent("source.bin")
        try Data("the attached bytes".utf8).write(to: source)
        let attachment = try store.addAttachmentContent(fromFile: source.path, name: "plan v2.txt", maxBytes: 1 << 20)
        let received = directory.appendingPathComponent("received")
        try FileManager.default.createDirectory(at: received, withIntermediateDirectories: true)
        // The opener copies what it is given into `received`, keeping its name.
        try AttachmentOpener.open(
            store, name: attachment.name, sha256: attachment.sha256,
            environment: ["OPENER": "cp -t '\(received.path)'"])
        let copy = received.appendingPathComponent("plan v2.txt")
        #expect(await eventually { FileManager.default.fileExists(atPath: copy.path) })
        #expect(await eventually { (try? String(contentsOf: copy, encoding: .utf8)) == "the attached bytes" })
        #expect(AttachmentOpener.command([:]) == "xdg-open")
        #expect {
            try AttachmentOpener.open(
                store, name: "gone.txt", sha256: String(repeating: "c", count: 64), environment: [:])
        } throws: { "\($0)".contains("has not arrived on this device yet") }
    }
}
