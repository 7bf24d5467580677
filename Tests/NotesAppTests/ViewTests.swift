import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

@Suite struct ViewTests {
    @Test func sixtyColumnsStackThePreviewUnderTheList() {
        let screen = view(AppState.fixture(), Size(width: 60, height: 15))
        #expect(
            text(screen)
                == Buffer(lines: [
                    "/ search                                                    ",
                    "FAVORITES                                                   ",
                    "★ Groceries  milk, eggs                                2m ✓ ",
                    "★ Ideas                                                3h ↻ ",
                    "NOTES                                                       ",
                    "  Meeting notes  Agenda: budget                        3d ⚠ ",
                    "  Travel                                               5m ✓ ",
                    "  Books                                               40d ✓ ",
                    "────────────────────────────────────────────────────────────",
                    " Groceries                                                  ",
                    " milk, eggs                                                 ",
                    " Enter: open                                                ",
                    "                                                            ",
                    "                                                            ",
                    " local only                 / search  n new  ? help  q quit ",
                ]))
        // The selected row is reversed across the pane; the snippet stays dim, marks keep their colour.
        #expect(styles(screen, y: 2, x: 0, count: 60).allSatisfy { $0.isReversed })
        #expect(screen[13, 2].style == Style().reverse().dim())
        #expect(screen[0, 2].style == Style().foreground(.yellow).reverse())
        #expect(screen[58, 3].style == Style().foreground(.yellow))
        #expect(screen[58, 5].style == Style().foreground(.red).bold())
        #expect(screen[58, 6].style == Style().foreground(.green))
        #expect(screen[0, 1].style.isBold && screen[0, 4].style.isBold)
    }

    @Test func bothSectionsWithTheSelectionInNotesSideBySide() {
        var state = AppState.fixture(size: Size(width: 80, height: 10))
        _ = send("jj", to: &state)
        let screen = view(state, Size(width: 80, height: 10))
        #expect(
            text(screen)
                == Buffer(lines: [
                    "/ search                                                                        ",
                    "FAVORITES                       │ Meeting notes                                 ",
                    "★ Groceries  milk, eggs    2m ✓ │ Agenda: budget                                ",
                    "★ Ideas                    3h ↻ │ Enter: open                                   ",
                    "NOTES                           │                                               ",
                    "  Meeting notes  Agenda…   3d ⚠ │                                               ",
                    "  Travel                   5m ✓ │                                               ",
                    "  Books                   40d ✓ │                                               ",
                    "                                │                                               ",
                    " local only                                     / search  n new  ? help  q quit ",
                ]))
        #expect(styles(screen, y: 5, x: 0, count: 32).allSatisfy { $0.isReversed })
        #expect(screen[0, 2].style == Style().foreground(.yellow))
        #expect(screen[32, 5].style == Style().dim())
    }

    @Test func searchFieldWhileTypingShowsTheQueryAndOnlyTheResults() {
        var state = AppState.fixture()
        _ = send("/mee", to: &state)
        _ = update(&state, .searchResults(query: "mee", rows: [state.notes[0]], limit: 100))
        let screen = view(state, Size(width: 60, height: 15))
        #expect(
            text(screen)
                == Buffer(lines: [
                    "/ mee▏                                                      ",
                    "NOTES                                                       ",
                    "  Meeting notes  Agenda: budget                        3d ⚠ ",
                    "                                                            ",
                    "                                                            ",
                    "                                                            ",
                    "                                                            ",
                    "                                                            ",
                    "────────────────────────────────────────────────────────────",
                    " Meeting notes                                              ",
                    " Agenda: budget                                             ",
                    " Enter: open                                                ",
                    "                                                            ",
                    "                                                            ",
                    " local only                             Enter go  Esc clear ",
                ]))
    }

    @Test func matchedTextInTitlesAndSnippetsIsHighlighted() {
        var state = AppState.fixture()
        _ = send("/budg", to: &state)
        var hit = row(3, "Budget meeting", ago: 60, snippet: "the budget for Q3")
        hit.titleMatches = [0..<4]
        hit.snippetMatches = [4..<8]
        _ = update(&state, .searchResults(query: "budg", rows: [hit], limit: 100))
        let screen = view(state, Size(width: 60, height: 15))
        #expect(text(screen).lines[2] == "  Budget meeting  the budget for Q3                    1m ✓ ")
        let highlight = Style().foreground(.yellow).bold().underline().reverse()
        // "Budg" in the title and "budg" in the snippet; the rest keeps its own style.
        #expect(styles(screen, y: 2, x: 2, count: 5) == Array(repeating: highlight, count: 4) + [Style().reverse()])
        #expect(
            styles(screen, y: 2, x: 22, count: 5) == Array(repeating: highlight, count: 4) + [Style().reverse().dim()])
        #expect(screen[21, 2].style == Style().reverse().dim())
    }

    @Test func aScrolledListKeepsTheSelectionOnScreen() {
        var state = AppState.longFixture()
        _ = send("<PgDn>", to: &state)
        let screen = view(state, Size(width: 60, height: 15))
        #expect(
            Array(text(screen).lines[1...7]) == [
                "★ Ideas                                                3h ↻ ",
                "NOTES                                                       ",
                "  Note 0                                               1m ✓ ",
                "  Note 1                                               1m ✓ ",
                "  Note 2                                               1m ✓ ",
                "  Note 3                                               1m ✓ ",
                "  Note 4                                               1m ✓ ",
            ])
        #expect(screen[0, 7].style == Style().reverse())
    }

    /// 50 columns for the title: 24 wide characters and the ellipsis, then the time and mark in place.
    @Test func longAndWideTitlesAreClippedByDisplayWidth() {
        var state = AppState.fixture()
        state.setList(favorites: [], notes: [row(7, "会議のメモと来週の予定と長い長い長い長いタイトルです", ago: 60)])
        let screen = view(state, Size(width: 60, height: 15))
        #expect(text(screen).lines[2] == "  会議のメモと来週の予定と長い長い長い長いタイトル…    1m ✓ ")
    }

    @Test func theTimeColumnAlwaysShowsItsUnit() {
        var state = AppState.fixture()
        state.setList(favorites: [], notes: [row(7, "Old", ago: 268 * 86_400), row(8, "Older", ago: 3 * 365 * 86_400)])
        let lines = text(view(state, Size(width: 60, height: 15))).lines
        #expect(lines[2].hasSuffix(" 268d ✓ "))
        #expect(lines[3].hasSuffix("   3y ✓ "))
    }

    /// At 60x15 the help does not fit: j/k (and G, g, PgDn) scroll it, and it says so.
    @Test func helpScrollsOnASmallTerminal() {
        var state = AppState.fixture()
        _ = send("?G", to: &state)
        var lines = text(view(state, Size(width: 60, height: 15))).lines
        #expect(lines[1].contains("│ e a o        $EDITOR / attachments"))
        #expect(lines[13].contains("│ ^X M-w ^U    editor: clipboard"))
        #expect(lines[14].contains("└─ ↑ k ─"))
        _ = send("kkkkkkkkk", to: &state)
        lines = text(view(state, Size(width: 60, height: 15))).lines
        #expect(lines[1].contains("│ j k ↑ ↓      move"))
        #expect(lines[14].contains("└─ ↓ j more ─"))
        _ = send("<Esc>?", to: &state)
        #expect(state.focus == .help(scroll: 0))
        // Tall enough for every line: nothing scrolls.
        _ = update(&state, .resize(Size(width: 80, height: 24)))
        _ = send("j", to: &state)
        #expect(state.focus == .help(scroll: 0))
    }

    @Test func helpOverlayListsTheKeys() {
        var state = AppState.fixture()
        _ = send("?", to: &state)
        let screen = view(state, Size(width: 60, height: 15))
        #expect(
            text(screen)
                == Buffer(lines: [
                    "/ search   ┌─ Keys ─────────────────────────────┐           ",
                    "FAVORITES  │ j k ↑ ↓      move                  │           ",
                    "★ Groceries│ g G Home End first / last          │      2m ✓ ",
                    "★ Ideas    │ PgUp PgDn    page                  │      3h ↻ ",
                    "NOTES      │ / Esc        search / back / clear │           ",
                    "  Meeting n│ Enter Tab    open note             │      3d ⚠ ",
                    "  Travel   │ n f          new note / favorite   │      5m ✓ ",
                    "  Books    │ d u T        trash / undo / view   │     40d ✓ ",
                    "───────────│ e a o        $EDITOR / attachments │───────────",
                    " Groceries │ Space [ ]    tick task / move      │           ",
                    " milk, eggs│ s c h        sync/conflict/history │           ",
                    " Enter: ope│ q ^Q         quit (saves first)    │           ",
                    "           │ N # t        notebooks/tags/today  │           ",
                    "           │ L ^] r       link / raw preview    │           ",
                    " local only└─ ↓ j more ─────────────────────────┘ Esc close ",
                ]))
        #expect(styles(screen, y: 1, x: 13, count: 7) == Array(repeating: Style().bold(), count: 7))
        #expect(screen[26, 1].style == .plain)
    }
}

extension ViewTests {
    @Test func aTallerTerminalAlsoShowsTheEditorKeysInHelp() {
        var state = AppState.fixture(size: Size(width: 80, height: 24))
        _ = send("?", to: &state)
        let lines = text(view(state, Size(width: 80, height: 24))).lines
        #expect(lines.contains { $0.contains("│ M-u M-e      editor: undo / redo   │") })
        #expect(lines.contains { $0.contains("│ ^← ^→        editor: by word       │") })
    }
}

/// ARCHITECTURE §7: note text reaches the screen only through `TerminalSafeText`, so escape
/// sequences and bidi overrides are drawn as visible characters.
@Suite struct ViewSafetyTests {
    @Test func escapeSequencesAndBidiOverridesInATitleAreShownAsVisibleCharacters() {
        var state = AppState.fixture()
        state.setList(
            favorites: [],
            notes: [row(8, "\u{1B}]0;pwned\u{07}Evil\u{1B}[2J\u{202E}txt.exe", ago: 60, snippet: "a\u{1B}[31mred\rX")])
        let screen = view(state, Size(width: 60, height: 15))
        let lines = text(screen).lines
        #expect(lines[2] == "  ␛]0;pwned␇Evil␛[2J<U+202E>txt.exe  a␛[31mred␍X       1m ✓ ")
        #expect(lines[9] == " ␛]0;pwned␇Evil␛[2J<U+202E>txt.exe                          ")
        #expect(lines[10] == " a␛[31mred␍X                                                ")
        for cell in screen.cells {
            #expect(!cell.grapheme.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
        }
    }
}
