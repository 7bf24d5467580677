import Foundation
import NotesCore
import Testing

/// What `view watch` reports between two looks: removals, additions, then changes, in a fixed
/// order; a note whose signature did not change is not reported.
@Suite struct ViewChangesTests {
    static func match(_ n: UInt8, _ title: String, _ signature: String = "1") -> ViewMatch {
        ViewMatch(id: UUID(uuid: (n, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), title: title, signature: signature)
    }

    static func byID(_ matches: [ViewMatch]) -> [UUID: ViewMatch] {
        Dictionary(uniqueKeysWithValues: matches.map { ($0.id, $0) })
    }

    @Test func addedRemovedAndChangedAreToldApartAndOrdered() {
        let old = Self.byID([Self.match(1, "Budget"), Self.match(2, "Agenda"), Self.match(3, "Trip")])
        let new = Self.byID([
            Self.match(1, "Budget", "2"), Self.match(4, "Zebra"), Self.match(5, "Apple"), Self.match(3, "Trip"),
        ])
        let changes = ViewChange.between(old, new)
        #expect(changes.map(\.kind) == [.removed, .added, .added, .changed])
        #expect(changes.map(\.note.title) == ["Agenda", "Apple", "Zebra", "Budget"])
    }

    @Test func nothingChangedSaysNothing() {
        let same = Self.byID([Self.match(1, "Budget"), Self.match(2, "Agenda")])
        #expect(ViewChange.between(same, same).isEmpty)
        #expect(ViewChange.between([:], [:]).isEmpty)
    }
}
