import Foundation
import Testing

@Suite struct CompactCLITests {
    @Test func compactPrintsTheStoreSizeBeforeAndAfterAndKeepsEveryNote() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let added = try cli.cn("add", "Kept", "--body", String(repeating: "a body line\n", count: 200))
        #expect(added.status == 0)
        let result = try cli.cn("compact")
        #expect(result.status == 0, "\(result.stderr)")
        let line = result.stdout.trimmingCharacters(in: .newlines)
        #expect(line.hasPrefix("store: ") && line.contains(" -> "), "\(line)")
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(try cli.cn("show", "Kept").stdout.contains("a body line"))
    }
}
