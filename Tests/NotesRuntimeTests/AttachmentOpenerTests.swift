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

    /// Without `xdg-open` or `$OPENER` nothing opens, and the app must not say "Opened"
    /// (issue 22, item 15): the answer is an error saying what to install or set.
    @Test func withoutAnOpenerTheAnswerSaysWhatToInstall() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-open-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try NoteStore(directory: directory.appendingPathComponent("data"))
        let source = directory.appendingPathComponent("source.bin")
        try Data("bytes".utf8).write(to: source)
        let attachment = try store.addAttachmentContent(fromFile: source.path, name: "a.txt", maxBytes: 1 << 20)
        let emptyPath = directory.appendingPathComponent("bin").path
        try FileManager.default.createDirectory(atPath: emptyPath, withIntermediateDirectories: true)
        #expect {
            try AttachmentOpener.open(
                store, name: attachment.name, sha256: attachment.sha256, environment: ["PATH": emptyPath])
        } throws: { "\($0)" == "nothing here opens attachments: install xdg-open (xdg-utils) or set $OPENER" }
        #expect {
            try AttachmentOpener.open(
                store, name: attachment.name, sha256: attachment.sha256,
                environment: ["PATH": emptyPath, "OPENER": "no-such-opener --flag"])
        } throws: { "\($0)".hasPrefix("$OPENER does not name a program on this PATH") }
    }
}
