import Foundation
import NotesCore
import NotesFiles
import NotesStore
import NotesSync
import Testing

/// Two mirrors of one data directory (`files --watch` and a `files sync` beside it) take turns
/// and each starts from the other's records: the other's writes are not edits to it.
@Suite struct FolderMirrorTurnsTests {
    @Test func aSecondMirrorStartsFromTheFirstOnesRecords() throws {
        let fixture = try MirrorFixture("turns")
        defer { fixture.remove() }
        let store = fixture.store
        let (watching, other) = (try fixture.mirror(), try fixture.mirror())
        try store.create(title: "One", body: "first")
        #expect(try watching.sync().toFolder == ["wrote notes/One.md"])
        let second = try other.sync()
        #expect(second.isEmpty, "\(second.fromFolder) \(second.toFolder)")
        try store.create(title: "Two", body: "second")
        #expect(try other.sync().toFolder == ["wrote notes/Two.md"])
        #expect(try watching.sync().isEmpty)
    }
}
