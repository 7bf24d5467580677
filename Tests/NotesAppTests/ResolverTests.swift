import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// The conflict resolver (`c`): both versions, keep mine / theirs / both / edit.
@Suite struct ResolverTests {
    let versions = ConflictVersions(
        noteID: noteID(3),
        mine: .init(label: "this device", title: "Meeting notes", body: "Agenda: budget\nRoom 4"),
        theirs: .init(label: "laptop", title: "Meeting notes", body: "Agenda: budget, hiring\nRoom 4"),
        base: .init(label: "base", title: "Meeting notes", body: "Agenda: budget\nRoom 4"))

    /// The fixture with the selection on the conflicted note and the resolver loaded.
    func resolving(size: Size = Size(width: 60, height: 15)) -> AppState {
        var state = AppState.fixture(size: size)
        _ = send("jj", to: &state)
        _ = send("c", to: &state)
        _ = update(&state, .conflictLoaded(versions))
        return state
    }

    @Test func cOnAConflictedNoteLoadsItsConflict() {
        var state = AppState.fixture()
        _ = send("jj", to: &state)
        #expect(send("c", to: &state) == [.loadConflict(noteID(3))])
        #expect(state.resolver != nil)
    }

    @Test func cElsewhereWalksThroughTheNotesInConflict() {
        var state = AppState.fixture()
        #expect(send("c", to: &state) == [.loadConflicts(limit: 100)])
        let other = row(8, "Other", ago: 60, sync: .conflict)
        #expect(update(&state, .conflictsLoaded([state.notes[0], other])) == [.loadConflict(noteID(3))])
        _ = update(&state, .conflictLoaded(versions))
        #expect(send("m", to: &state) == [.resolveConflict(noteID(3), .keepMine)])
        // Resolved: the next conflict opens.
        let effects = update(&state, .conflictResolved(noteID(3)))
        #expect(effects.contains(.loadConflict(noteID(8))))
        #expect(state.resolver?.noteID == noteID(8))
        #expect(state.message == StatusMessage("Resolved “Meeting notes”"))
    }

    @Test func noConflictsSaysSo() {
        var state = AppState.fixture()
        _ = send("c", to: &state)
        _ = update(&state, .conflictsLoaded([]))
        #expect(state.message == StatusMessage("No conflicts"))
        #expect(state.focus == .list)
    }

    @Test func theLinesWhereTheVersionsDifferAreHighlightedOnBothSides() {
        let screen = view(resolving(size: Size(width: 60, height: 15)), Size(width: 60, height: 15))
        let rows = text(screen).lines
        let changed = Style().foreground(.red).bold()
        func styleOf(_ needle: String) -> Style? {
            guard let y = rows.firstIndex(where: { $0.hasPrefix(needle) }) else { return nil }
            return screen[0, y].style
        }
        #expect(styleOf("Agenda: budget   ") == changed, "mine's changed line")
        #expect(styleOf("Agenda: budget, hiring") == changed, "theirs' changed line")
        #expect(styleOf("Room 4") == .plain, "a line both have")
    }

    @Test func theResolverStacksBothVersionsOnANarrowScreen() {
        let screen = view(resolving(), Size(width: 60, height: 15))
        #expect(
            Array(text(screen).lines[1...13]) == [
                "Conflict in “Meeting notes”                                 ",
                "this device                                                 ",
                "Meeting notes                                               ",
                "Agenda: budget                                              ",
                "Room 4                                                      ",
                "                                                            ",
                "                                                            ",
                "────────────────────────────────────────────────────────────",
                "laptop                                                      ",
                "Meeting notes                                               ",
                "Agenda: budget, hiring                                      ",
                "Room 4                                                      ",
                "                                                            ",
            ])
        #expect(text(screen).lines[14].hasSuffix("m mine  t theirs  b both  e edit  Esc close "))
        #expect(screen[0, 2].style == Style().bold().underline())
    }

    @Test func theResolverPutsBothVersionsSideBySideOnAWideScreen() {
        let screen = view(resolving(size: Size(width: 100, height: 10)), Size(width: 100, height: 10))
        let lines = text(screen).lines
        #expect(lines[2] == TextWidth.pad("this device", to: 49) + "│ " + TextWidth.pad("laptop", to: 49))
        #expect(
            lines[4] == TextWidth.pad("Agenda: budget", to: 49) + "│ " + TextWidth.pad("Agenda: budget, hiring", to: 49)
        )
    }

    @Test func keepTheirsAndKeepBoth() {
        var theirs = resolving()
        #expect(send("t", to: &theirs) == [.resolveConflict(noteID(3), .keepTheirs)])
        // While the answer is awaited, another choice is not sent.
        #expect(send("b", to: &theirs).isEmpty)
        var both = resolving()
        #expect(send("b", to: &both) == [.resolveConflict(noteID(3), .keepBoth)])
    }

    @Test func editStartsFromTheThreeWayMergeAndCtrlSResolvesWithTheEditedText() {
        var state = resolving()
        _ = send("e", to: &state)
        #expect(state.resolver?.isEditing == true)
        // Only the laptop changed line 2 since the base: the merge takes it, without markers.
        let screen = text(view(state, Size(width: 60, height: 15))).lines
        #expect(screen[2] == " Meeting notes                                              ")
        #expect(screen[3] == " Agenda: budget, hiring                                     ")
        _ = send("<C-End> B", to: &state)
        #expect(
            send("<C-s>", to: &state) == [
                .resolveConflict(noteID(3), .edited(title: "Meeting notes", body: "Agenda: budget, hiring\nRoom 4 B"))
            ])
    }

    @Test func escClosesTheResolverWithoutResolving() {
        var state = resolving()
        #expect(send("<Esc>", to: &state).isEmpty)
        #expect(state.focus == .list)
        #expect(state.resolver == nil)
    }
}
