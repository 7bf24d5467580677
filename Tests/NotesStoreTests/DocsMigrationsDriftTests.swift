import Foundation
import Testing

@testable import NotesStore

/// docs/ARCHITECTURE.md names every frozen migration of `Schema`, in order, on its line that
/// begins "Migrations, in order:".
@Suite struct DocsMigrationsDriftTests {
    @Test func architectureListsEveryMigrationInOrder() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/ARCHITECTURE.md")
        let architecture = try String(contentsOf: file, encoding: .utf8)
        // The paragraph: from the marker to the next blank line.
        let paragraph = try #require(
            architecture.components(separatedBy: "\n\n").first { $0.contains("Migrations, in order:") })
        let named = paragraph.matches(of: /`([a-z0-9-]+)`/).map { String($0.1) }
        let code = Schema.steps.map(\.id) + ["v8-baseline"] + Schema.laterSteps.map(\.id)
        #expect(named == code)
    }
}
