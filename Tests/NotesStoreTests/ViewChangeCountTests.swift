import Foundation
import NotesCore
import Testing

@testable import NotesStore

/// The counts behind the app's status bar for saved searches marked to notify (issue 25,
/// subscriptions): notes that started or stopped matching, or changed, since the view was last
/// shown; showing it starts again at 0; unmarked views are not counted.
@Suite struct ViewChangeCountTests {
    func counts(_ store: NoteStore, shown: String? = nil) throws -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try store.viewChangeCounts(shownQuery: shown).map { ($0.name, $0.count) })
    }

    @Test func changesSinceLastShownAreCountedPerMarkedView() throws {
        let t = try TestStore()
        let store = t.store
        let plan = try store.create(title: "Plan", body: "ship", tags: ["work"])
        let other = try store.create(title: "Budget", body: "numbers", tags: ["work"])
        try store.writeSetting("view.work", "tag:work", here: false)
        try store.writeSetting("view.home", "tag:home", here: false)
        try store.writeSetting("notify.work", "true", here: false)
        // First look: what matches now is the baseline.
        #expect(try counts(store) == ["work": 0])
        try store.create(title: "Review", body: "draft", tags: ["work"])
        _ = try store.update(plan.id) { $0.body = "ship it" }
        _ = try store.update(other.id) { $0.tags = ["home"] }
        // Added, changed, stopped matching: three; the unmarked view is not counted.
        #expect(try counts(store) == ["work": 3])
        #expect(try counts(store) == ["work": 3], "looking again without showing it keeps the count")
        // Shown: starts again.
        #expect(try counts(store, shown: "tag:work") == ["work": 0])
        #expect(try counts(store) == ["work": 0])
        _ = try store.trash(plan.id)
        #expect(try counts(store) == ["work": 1])
        // Unmarked: no longer counted.
        try store.writeSetting("notify.work", nil, here: false)
        #expect(try counts(store).isEmpty)
    }

    @Test func aMarkIsTrueOrUnset() throws {
        let t = try TestStore()
        let store = t.store
        #expect(throws: SettingsError.self) { try store.writeSetting("notify.work", "yes", here: false) }
        #expect(throws: SettingsError.self) { try store.writeSetting("notify.", "true", here: false) }
    }
}
