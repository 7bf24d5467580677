import Foundation
import Testing

@Suite struct CLIBasicsTests {
    @Test func addThenShowRoundTripsTheBodyBytesWhenPiped() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let body = "line one\n\tindented \u{1B}[2J and é\n"
        let add = try cli.cn("add", "Title", stdin: body)
        #expect(add.status == 0, "\(add.stderr)")
        let id = add.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(UUID(uuidString: id) != nil)
        let show = try cli.cn("show", String(id.prefix(8)))
        #expect(show.status == 0)
        #expect(show.stdoutData == Data(body.utf8))
    }

    @Test func unknownNoteIsAUserErrorWithOneLineOnStderr() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.cn("show", "nope")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("no note matches"))
    }
}
