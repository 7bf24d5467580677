import Foundation
import Testing

/// Two devices rename one note differently: the note is flagged on both, and `conflicts`
/// shows both titles (the later one is the note's, the other is not dropped silently).
@Suite struct TitleConflictCLITests {
    @Test func concurrentRenamesAreListedWithBothTitlesOnEveryDevice() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let (_, a, b) = try cli.devicesSharingACloudFolder()
        let created = try cli.cn(at: a, "add", "Shared", "--body", "text")
        let id = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try cli.cn(at: a, "sync").status == 0)
        #expect(try cli.cn(at: b, "sync").status == 0)
        #expect(try cli.cn(at: a, "edit", id, "--title", "Renamed on a").status == 0)
        #expect(try cli.cn(at: b, "edit", id, "--title", "Renamed on b").status == 0)
        for device in [a, b, a] { #expect(try cli.cn(at: device, "sync").status == 0) }
        for device in [a, b] {
            let listing = try cli.cn(at: device, "conflicts")
            #expect(listing.stdout.contains(id), "\(listing.stdout)")
            #expect(
                listing.stdout.contains("Renamed on a") && listing.stdout.contains("Renamed on b"), "\(listing.stdout)")
        }
        // Keeping one side closes the conflict.
        #expect(try cli.cn(at: a, "resolve", id, "--keep", "mine").status == 0)
        #expect(try cli.cn(at: a, "conflicts").stdout == "no conflicts\n")
    }
}
