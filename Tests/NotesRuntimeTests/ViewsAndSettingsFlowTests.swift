import Foundation
import NotesApp
import NotesCore
import NotesStore
import Synchronization
import Testing

/// Saved searches and synced settings in the app, stepped in-process (issue 25): a view shows in
/// the notebook picker beneath the notebooks, Enter lists what it matches and the list follows
/// changes; a setting changed by another connection (a sync, the CLI) is in force at once and
/// the status bar says who changed it.
@Suite struct ViewsAndSettingsFlowTests {
    @Test func aViewInThePickerListsItsNotesAndFollowsChanges() throws {
        let app = try SteppedRuntime { store in
            _ = try store.createNotebook(named: "Work Log")
            try store.create(title: "Plan", body: "ship it", tags: ["work"])
            try store.create(title: "Groceries", body: "milk")
            try store.writeSetting("view.open work", "tag:work", here: false)
        }
        app.expectScreen("Groceries")
        app.press("N")
        app.expectScreen("the view beneath the notebooks") {
            guard let notebook = $0.range(of: "Work Log"), let view = $0.range(of: "view: open work") else {
                return false
            }
            return notebook.upperBound < view.lowerBound
        }
        // All notebooks, notes, Work Log, then the view: the last.
        app.press("G<Enter>")
        app.expectScreen("the view's notes") {
            $0.contains("tag:work") && $0.contains("Plan") && !$0.contains("Groceries")
        }
        // Another program tags a note: the list that shows the view follows.
        let other = try NoteStore(directory: app.directory)
        let groceries = try #require(try app.note("Groceries"))
        _ = try other.update(groceries.id) { $0.tags = ["work"] }
        app.advance(by: Duration.seconds(1))
        app.expectScreen("the newly matching note listed") { $0.contains("Groceries") && $0.contains("Plan") }
    }

    @Test func aViewMarkedToNotifyCountsItsChangesUntilShown() throws {
        let app = try SteppedRuntime { store in
            try store.create(title: "Plan", body: "ship it", tags: ["work"])
            try store.create(title: "Groceries", body: "milk")
            try store.writeSetting("view.work", "tag:work", here: false)
            try store.writeSetting("notify.work", "true", here: false)
        }
        app.expectScreen("Groceries")
        #expect(!app.screen.contains("● work"))
        // Two changes arrive from elsewhere (a sync, the CLI): a new matching note, an edit.
        let other = try NoteStore(directory: app.directory)
        try other.create(title: "Review", body: "the draft", tags: ["work"])
        let plan = try #require(try app.note("Plan"))
        _ = try other.update(plan.id) { $0.body = "ship it today" }
        app.advance(by: Duration.seconds(1))
        app.expectScreen("● work: 2")
        // Shown from the picker: the count goes.
        app.press("NG<Enter>")
        app.expectScreen("the view's notes") { $0.contains("Review") && !$0.contains("Groceries") }
        #expect(!app.screen.contains("● work"))
        // A change while it is shown is seen at once: nothing to count.
        _ = try other.update(plan.id) { $0.body = "shipped" }
        app.advance(by: Duration.seconds(1))
        #expect(!app.screen.contains("● work"))
    }

    /// The store the reload reads, set once the runtime made it.
    final class StoreBox: Sendable {
        let store = Mutex<NoteStore?>(nil)
        let lastDelay = Mutex<Double?>(nil)
    }

    @Test func aSettingChangedElsewhereIsInForceAtOnceAndSaid() throws {
        let box = StoreBox()
        let app = try SteppedRuntime(
            seed: { store in try store.create(title: "Draft", body: "text") },
            configure: { options in
                options.autosaveDelay = .seconds(10)
                // The composition root's reload (TUI+Settings) reduced to its plumbing: the
                // settings as stored, read again after each commit by another connection.
                options.reloadSettings = {
                    guard let state = try? box.store.withLock({ $0 })?.settingsState(),
                        let delay = state.values["autosaveSeconds"].flatMap(Double.init),
                        box.lastDelay.withLock({ $0 }) != delay
                    else { return nil }
                    box.lastDelay.withLock { $0 = delay }
                    return LiveSettings(
                        theme: .standard, autosaveDelay: .milliseconds(Int(delay * 1000)),
                        autosaveMaxWait: .seconds(30), said: "Settings changed on laptop: autosaveSeconds")
                }
            })
        box.store.withLock { $0 = app.store }
        app.expectScreen("Draft")
        app.press("<Enter>")
        app.expectScreen("the editor") { $0.contains("Esc back") }
        // `config set` in another process (or a sync that brought it) while the editor is open.
        try NoteStore(directory: app.directory).writeSetting("autosaveSeconds", "3", here: false)
        app.advance(by: Duration.seconds(1))
        app.expectScreen("Settings changed on laptop: autosaveSeconds")
        // The next edit saves after 3 s, not the 10 s the app started with.
        app.press("<Down><End>!")
        app.advance(by: .milliseconds(2_900))
        #expect(try app.note("Draft")?.body == "text")
        app.advance(by: .milliseconds(100))
        #expect(try app.note("Draft")?.body == "text!")
    }
}
