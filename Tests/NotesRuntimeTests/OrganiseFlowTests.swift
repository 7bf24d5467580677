import Foundation
import NotesCore
import NotesStore
import Testing

/// Organising, stepped in-process (issue 15; formerly tmux end-to-end tests): the notebook
/// picker filters the list and the search line names the notebook, the preview lists the
/// notes linking here, `L` follows a link, `t` opens the day's note, and retitling a note asks
/// whether to update the links to it.
@Suite struct OrganiseFlowTests {
    @Test func pickANotebookFollowALinkAndOpenToday() throws {
        let app = try SteppedRuntime { store in
            let workLog = try store.createNotebook(named: "Work Log")
            try store.create(title: "Other", body: "elsewhere")
            try store.create(title: "Hub", body: "the centre of things")
            try store.create(title: "Plan", body: "see [[Hub]] first", zone: workLog.zone)
        }
        app.expectScreen("Other")
        // Plan, Hub, Other (newest first): Hub's preview lists the note that links to it.
        app.press("j")
        app.expectScreen("Hub's backlinks in its preview") { $0.contains("← Plan") }
        app.press("N")
        app.expectScreen("the notebook picker") {
            $0.contains("Notebooks") && $0.contains("All notebooks") && $0.contains("Work Log")
        }
        // All notebooks, notes, Work Log: the third.
        app.press("jj<Enter>")
        app.expectScreen("the list filtered to Work Log, named on the search line") {
            $0.contains("▸ Work Log") && $0.contains("Plan") && !$0.contains("Other")
        }
        app.expectScreen("see [[Hub]] first")
        app.press("L")
        app.expectScreen("Hub open in the editor") { $0.contains("the centre of things") && $0.contains("Esc back") }
        app.press("<Esc>")
        app.expectScreen("back in the list") { $0.contains("n new") }
        app.press("t")
        // The day's note is titled with the date of the runtime's clock.
        let today = NoteTemplate.day(app.clock.date, timeZone: .current)
        app.expectScreen("the day's note open in the editor") { $0.contains(today) && $0.contains("Esc back") }
        #expect(try app.titles().contains { $0.contains(today) })
    }

    /// The app on Plan and Other, which link to Hub, with Hub open in the editor retitled
    /// "Centre" (not saved yet).
    private static func hubRetitledInTheEditor() throws -> SteppedRuntime {
        let app = try SteppedRuntime { store in
            try store.create(title: "Plan", body: "see [[Hub]] first")
            try store.create(title: "Other", body: "also [Hub](Hub.md)")
            try store.create(title: "Hub", body: "the centre of things")
        }
        app.expectScreen("Plan")
        // Hub is the newest, selected: open it and retitle it.
        app.press("<Enter>")
        app.expectScreen("Hub open in the editor") { $0.contains("the centre of things") && $0.contains("Esc back") }
        app.press("<End><BS><BS><BS>Centre")
        return app
    }

    /// Leaving the editor asks whether to update the links to the old title; `y` rewrites
    /// them in the other notes, `n` leaves them.
    @Test func retitleInTheEditorAndUpdateTheLinks() throws {
        let app = try Self.hubRetitledInTheEditor()
        app.press("<Esc>")
        app.expectScreen("Update 2 links to “Hub” → “Centre”? y/n")
        app.press("y")
        app.expectScreen("Updated links in 2 notes")
        #expect(try app.note("Plan")?.body == "see [[Centre]] first")
        #expect(try app.note("Other")?.body == "also [Hub](Centre.md)")
        // The message's time passes: the status bar shows the key hints again.
        app.advance(by: .seconds(6))
        // Again, answering n: the links stay.
        app.press("<Enter>")

        app.expectScreen("Centre open in the editor") { $0.contains("the centre of things") && $0.contains("Esc back") }
        app.press("<Home><End><BS><BS><BS><BS><BS><BS>Core")
        app.press("<Esc>")
        app.expectScreen("Update 2 links to “Centre” → “Core”? y/n")
        app.press("n")
        app.expectScreen("Links to “Centre” left as they are")
        #expect(try app.titles().contains("Core"))
        #expect(try app.note("Plan")?.body == "see [[Centre]] first")
    }

    /// Retitling a note and quitting at once from the editor (`^Q`): the app asks about the
    /// links before it exits; `y` updates them and then quits, `n` quits leaving them. The new
    /// title is saved either way.
    @Test(arguments: ["y", "n"])
    func retitleThenQuitAsksAboutTheLinksBeforeExiting(answer: String) throws {
        let app = try Self.hubRetitledInTheEditor()
        app.press("<C-q>")
        app.expectScreen("Update 2 links to “Hub” → “Centre”? y/n")
        #expect(app.runtime.exited == nil, "the app quit before the question was answered")
        app.press(answer)
        #expect(app.runtime.exited == .quit)
        let (plan, other) = (try app.note("Plan")?.body, try app.note("Other")?.body)
        if answer == "y" {
            #expect(plan == "see [[Centre]] first")
            #expect(other == "also [Hub](Centre.md)")
        } else {
            #expect(plan == "see [[Hub]] first")
            #expect(other == "also [Hub](Hub.md)")
        }
        #expect(try app.titles().contains("Centre"), "the new title is saved (\(answer))")
    }
}
