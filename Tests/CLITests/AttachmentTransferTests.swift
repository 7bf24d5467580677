import Foundation
import NotesTestSupport
import Testing

/// Export and import carry attachments: `<dir>/<stem>.md` has its files in `<dir>/<stem>/`
/// (a Markdown export's `<dir>` is the notebook's folder, `<stem>` the note's title made safe).
@Suite("Attachments in export and import")
struct AttachmentTransferTests {
    @Test("a Markdown export writes the files beside the note, and importing the export brings them back")
    func roundTrip() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let id = try runner.add("with files", body: "see the files")
        let photo = try AttachmentCLITests.randomFile(runner, "photo.bin", bytes: 1_300_000)
        // A .txt attachment: inside the attachment folder it is a file of the note, not a note.
        let list = runner.home.appendingPathComponent("list.txt")
        try Data("not a note\n".utf8).write(to: list)
        #expect(try runner.cn("attach", id, photo.path, list.path).status == 0)
        let export = runner.home.appendingPathComponent("export").path
        let exported = try runner.cn("export", export)
        #expect(exported.status == 0, "\(exported.stderr)")
        let files = export + "/notes/with files"
        #expect(FileManager.default.fileExists(atPath: files + ".md"))
        #expect(try AttachmentCLITests.sameBytes(URL(fileURLWithPath: files + "/photo.bin"), photo))
        #expect(try String(contentsOfFile: files + "/list.txt", encoding: .utf8) == "not a note\n")

        let other = runner.device("other")
        let imported = try runner.run(["import", export, "--data-dir", other.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("imported 1 note"), "\(imported.stderr)")
        #expect(!imported.stderr.contains("with files/"), "the attachment folder is no notebook: \(imported.stderr)")
        let listed = try runner.cn(at: other, "attachments", id, "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: listed.stdoutData) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["list.txt", "photo.bin"])
        let out = runner.home.appendingPathComponent("out.bin")
        #expect(try runner.cn(at: other, "attachment", id, "photo.bin", "-o", out.path).status == 0)
        #expect(try AttachmentCLITests.sameBytes(out, photo))
        // Importing the same export again changes nothing.
        let again = try runner.run(["import", export, "--data-dir", other.path])
        #expect(again.stderr.contains("1 unchanged"), "\(again.stderr)")
    }
}
