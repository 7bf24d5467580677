import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// NO_COLOR, the config's theme, and the ASCII fallback for a non-UTF-8 locale.
@Suite struct ThemeTests {
    /// A colour's name is what the config spells and what interpolating the case gives, for
    /// every colour: the theme reads config names through it.
    @Test func everyColourIsNamedAsTheConfigSpellsIt() {
        #expect(Set(Style.Color.allCases.map(\.name)) == AppConfig.colors)
        for color in Style.Color.allCases {
            #expect(color.name == "\(color)")
            #expect(Theme(roles: ["match": color.name], noColor: false).match == color)
        }
    }

    @Test func noColorLeavesNoColourOnScreenButKeepsAttributes() {
        var state = AppState.fixture()
        state.theme = Theme(roles: ["favorite": "magenta"], noColor: true)
        let screen = view(state, Size(width: 60, height: 15))
        #expect(screen.cells.allSatisfy { $0.style.foreground == .default && $0.style.background == .default })
        #expect(screen[0, 2].style.isReversed)
        #expect(screen[0, 1].style.isBold)
    }

    @Test func theConfigThemeColoursByRole() {
        var state = AppState.fixture()
        state.theme = Theme(
            roles: ["favorite": "magenta", "conflict": "brightRed", "synced": "no such colour"], noColor: false)
        let screen = view(state, Size(width: 60, height: 15))
        #expect(screen[0, 3].style == Style().foreground(.magenta))
        #expect(screen[58, 5].style == Style().foreground(.brightRed).bold())
        #expect(screen[58, 6].style == Style().foreground(.green))
    }

    @Test func accentSelectionAndMutedColourHeadersTheSelectedBarAndHints() {
        var state = AppState.fixture()
        state.theme = Theme(roles: ["accent": "cyan", "selection": "blue", "muted": "brightBlack"], noColor: false)
        let screen = view(state, Size(width: 60, height: 15))
        #expect(screen[0, 1].style == Style().bold().foreground(.cyan))  // FAVORITES
        // The selected row is a blue bar; its star keeps its colour, its snippet the muted one,
        // as do relative times elsewhere.
        #expect(screen[0, 2].style == Style().foreground(.yellow).background(.blue))
        #expect(screen[13, 2].style == Style().foreground(.brightBlack).background(.blue))
        #expect(screen[56, 3].style == Style().foreground(.brightBlack))  // "3h"
        // The defaults ("default"): bold headers, a reverse-video bar, dim hints.
        let plain = view(AppState.fixture(), Size(width: 60, height: 15))
        #expect(plain[0, 1].style == Style().bold())
        #expect(plain[0, 2].style == Style().foreground(.yellow).reverse())
        #expect(plain[56, 3].style == Style().dim())
    }

    @Test func asciiOnlyDrawsNoNonASCIICharacter() {
        var state = AppState.fixture()
        state.asciiOnly = true
        state.setList(
            favorites: [row(1, "Café ☕ 会議", ago: 60, favorite: true)],
            notes: [row(3, "Plain", ago: 60, sync: .conflict)])
        let screen = view(state, Size(width: 60, height: 15))
        #expect(screen.cells.allSatisfy { $0.isContinuation || $0.grapheme.utf8.allSatisfy { $0 < 0x80 } })
        let lines = text(screen).lines
        #expect(lines[2] == "* Caf? ?? ????                                         1m + ")
        #expect(lines[4] == "  Plain                                                1m ! ")
        #expect(lines[8] == "------------------------------------------------------------")
    }
}
