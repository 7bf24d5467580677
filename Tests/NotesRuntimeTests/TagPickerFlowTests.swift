import Testing

/// The tag picker, stepped in-process (issue 15; formerly a tmux end-to-end test): `#` lists
/// every tag with its count, `Enter` filters the list to the chosen tag through the search
/// (`tag:name`), and the picker opened again starts on that tag.
@Suite struct TagPickerFlowTests {
    @Test func pickATagToFilterTheList() throws {
        let app = try SteppedRuntime { store in
            try store.create(title: "Alpha report", body: "quarterly", tags: ["work"])
            try store.create(title: "Beta groceries", body: "oat milk", tags: ["home"])
            try store.create(title: "Gamma review", body: "code", tags: ["work", "home"])
        }
        app.expectScreen("the list") {
            $0.contains("Alpha report") && $0.contains("Beta groceries") && $0.contains("Gamma review")
        }
        app.press("#")
        // Tags by name with how many notes carry each: home 2, work 2.
        app.expectScreen("the tag picker with counts") { screen in
            let lines = screen.split(separator: "\n")
            return screen.contains("Tags")
                && lines.contains { $0.contains("home") && $0.contains("2") }
                && lines.contains { $0.contains("work") && $0.contains("2") }
        }
        app.press("j<Enter>")
        expectList(app, "tag:work", showing: ["Alpha report", "Gamma review"], not: "Beta groceries")
        // Opened again, the picker starts on the tag the list is filtered by.
        app.press("#")
        app.expectScreen("Tags")
        app.press("k<Enter>")
        expectList(app, "tag:home", showing: ["Beta groceries", "Gamma review"], not: "Alpha report")
    }

    /// The list filtered by `query` (shown on the search line): `shown` listed, `hidden` not.
    private func expectList(
        _ app: SteppedRuntime, _ query: String, showing shown: [String], not hidden: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        app.expectScreen("the list filtered to \(query)", sourceLocation: sourceLocation) { screen in
            screen.contains(query) && shown.allSatisfy(screen.contains) && !screen.contains(hidden)
        }
    }
}
