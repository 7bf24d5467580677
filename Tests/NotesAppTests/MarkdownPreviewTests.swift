import Foundation
import NotesApp
import NotesCore
import NotesTestSupport
import TerminalUI
import Testing

/// The preview renders the note's Markdown (issue 26, "the same rendering in the terminal"):
/// each construct as a user sees it in the pane, `r` for the raw text, NO_COLOR, ASCII, hostile
/// text, and random notes that must never lose a word.
@Suite struct MarkdownPreviewTests {
    static let size = Size(width: 100, height: 30)

    /// The fixture with note 1 previewed with `body`.
    static func previewing(_ body: String, size: Size = size, theme: Theme = .standard, ascii: Bool = false)
        -> AppState
    {
        var state = AppState.fixture(size: size)
        state.theme = theme
        state.asciiOnly = ascii
        _ = state.requestPreview()
        _ = update(
            &state,
            .previewLoaded(
                noteID(1),
                NoteContent(
                    id: noteID(1), title: "Groceries", body: body, modifiedAt: testNow, tasks: TaskItem.all(in: body))))
        return state
    }

    /// The preview pane of a screen: its left column and its body rows (the title row skipped)
    /// as text with trailing spaces trimmed.
    struct Pane {
        let screen: Buffer
        let x: Int

        init(_ state: AppState, size: Size = MarkdownPreviewTests.size) throws {
            let screen = view(state, size)
            let separator = try #require((0..<size.width).first { ["│", "|"].contains(screen[$0, 2].grapheme) })
            self.screen = screen
            x = separator + 2
        }

        /// Body row `n` (from 0), trailing spaces trimmed.
        func line(_ n: Int) -> String {
            var line = ""
            for column in x..<screen.size.width where !screen[column, n + 2].isContinuation {
                line += screen[column, n + 2].grapheme
            }
            return String(line.reversed().drop(while: { $0 == " " }).reversed())
        }

        var lines: [String] { (0..<(screen.size.height - 3)).map(line) }

        /// The style of the cell under the first `text` on body row `n`.
        func style(of text: String, row n: Int) -> Style? {
            let line = line(n)
            guard let range = line.range(of: text) else { return nil }
            // Characters before it are one column each in these tests.
            return screen[x + line.distance(from: line.startIndex, to: range.lowerBound), n + 2].style
        }
    }

    @Test func headingsLoseTheirHashesAndAreBoldWithTheirLevelShown() throws {
        let pane = try Pane(Self.previewing("# Shopping\n## This week\n### Dairy\n#### Notes\n#hashtag"))
        #expect(
            pane.lines.prefix(7) == ["Shopping", "════════", "This week", "─────────", "Dairy", "Notes", "#hashtag"])
        #expect(pane.style(of: "Shopping", row: 0) == Style().bold().underline())
        #expect(pane.style(of: "This", row: 2) == Style().bold().underline())
        #expect(pane.style(of: "Dairy", row: 4) == Style().bold().underline())
        #expect(pane.style(of: "Notes", row: 5) == Style().bold())
        #expect(pane.style(of: "hashtag", row: 6) == .plain, "no space after # is not a heading")
    }

    @Test func emphasisCodeAndLinksShowWithoutTheirSyntax() throws {
        let pane = try Pane(
            Self.previewing(
                "Buy **fresh** milk, *not* _skimmed_, ~~cream~~ and `2 L`.\n[Shop](https://shop.example) and [[Recipes]]"
            ))
        #expect(pane.line(0) == "Buy fresh milk, not skimmed, cream and 2 L.")
        #expect(pane.style(of: "fresh", row: 0) == Style().bold())
        #expect(pane.style(of: "not", row: 0) == Style().italic())
        #expect(pane.style(of: "skimmed", row: 0) == Style().italic())
        #expect(pane.style(of: "cream", row: 0) == Style().dim())
        #expect(pane.style(of: "2 L", row: 0) == Style().foreground(.cyan))
        #expect(pane.style(of: "Buy", row: 0) == .plain)
        #expect(pane.line(1) == "Shop (https://shop.example) and [[Recipes]]")
        #expect(pane.style(of: "Shop", row: 1) == Style().underline().foreground(.blue))
        #expect(pane.style(of: "https", row: 1) == Style().dim())
        #expect(pane.style(of: "Recipes", row: 1) == Style().underline().foreground(.blue))
        #expect(pane.style(of: "and", row: 1) == .plain)
    }

    @Test func listsKeepTheirIndentationAndWrapUnderTheirText() throws {
        let long = "a list item long enough to wrap onto the next row of the preview pane here"
        let pane = try Pane(Self.previewing("- one\n  * nested\n1. first\n2) second\n+ \(long)"))
        #expect(pane.line(0) == "• one")
        #expect(pane.line(1) == "  • nested")
        #expect(pane.line(2) == "1. first")
        #expect(pane.line(3) == "2) second")
        #expect(pane.line(4).hasPrefix("• a list item long"))
        // The wrapped row hangs under the item's text, not under the bullet.
        #expect(pane.line(5).hasPrefix("  ") && !pane.line(5).hasPrefix("   "), "\(pane.lines)")
        #expect(pane.style(of: "•", row: 0) == Style().dim())
    }

    @Test func taskBoxesAreGlyphsAndSpaceStillTicksTheMarkedOne() throws {
        var state = Self.previewing("- [x] bread\n- [ ] milk\n  - [ ] eggs")
        var pane = try Pane(state)
        #expect(pane.lines.prefix(3) == ["☑ bread", "☐ milk", "  ☐ eggs"])
        // The mark (the task Space ticks) is on the first open task, in the cursor style.
        #expect(pane.style(of: "☐", row: 1) == Style().reverse())
        #expect(pane.style(of: "☑", row: 0) == .plain)
        let effects = send(" ", to: &state)
        #expect(effects == [.setTask(noteID: noteID(1), line: 2, done: true)])
        pane = try Pane(state)
        #expect(pane.line(1) == "☑ milk")
        _ = send("]", to: &state)
        pane = try Pane(state)
        #expect(pane.style(of: "☐", row: 2) == Style().reverse())
    }

    @Test func codeBlocksKeepTheirLinesAndAreNotReflowed() throws {
        let long = "let total = items.map { $0.price * $0.quantity }.reduce(0, +) // longer than the pane is"
        let pane = try Pane(
            Self.previewing("```swift\n\(long)\n  indented  **not bold**\n```\nafter\n\n    four spaces"))
        #expect(pane.line(0) == "swift")
        #expect(pane.line(1).hasPrefix("  let total = items.map"))
        #expect(pane.line(1).count == 58, "cut at the pane's edge: \(pane.lines)")
        #expect(pane.line(2) == "    indented  **not bold**")
        #expect(pane.line(3) == "")
        #expect(pane.line(4) == "after")
        #expect(pane.line(6) == "  four spaces")
        #expect(pane.style(of: "let", row: 1) == Style().foreground(.cyan))
        #expect(pane.style(of: "four", row: 6) == Style().foreground(.cyan))
        #expect(pane.style(of: "swift", row: 0) == Style().dim())
    }

    @Test func tablesAlignTheirColumnsAndAreCutAtThePaneEdge() throws {
        let pane = try Pane(
            Self.previewing("| Item | Qty | Note |\n|:--|--:|:-:|\n| apples | 3 | red |\n| kiwi | 12 | `ripe` |"))
        #expect(pane.line(0) == "Item   │ Qty │ Note")
        #expect(pane.line(1) == "───────┼─────┼─────")
        #expect(pane.line(2) == "apples │   3 │ red")
        #expect(pane.line(3) == "kiwi   │  12 │ ripe")
        #expect(pane.style(of: "Item", row: 0) == Style().bold())
        #expect(pane.style(of: "ripe", row: 3) == Style().foreground(.cyan))
        let wide =
            "| " + (1...12).map { "column\($0)" }.joined(separator: " | ") + " |\n|"
            + String(repeating: "---|", count: 12) + "\n| " + (1...12).map { "v\($0)" }.joined(separator: " | ")
            + " |\nnext"
        let cut = try Pane(Self.previewing(wide))
        #expect(cut.line(0).hasPrefix("column1 │ column2"))
        #expect(cut.line(0).count >= 57, "filled to the pane's edge (less a space between cells)")
        #expect(cut.line(3) == "next", "no row wrapped: \(cut.lines)")
    }

    @Test func quotesAndRulesAreDrawn() throws {
        let pane = try Pane(Self.previewing("> said **twice**\n>> nested\n\n---\nend"))
        #expect(pane.line(0) == "│ said twice")
        #expect(pane.style(of: "│", row: 0) == Style().dim())
        #expect(pane.style(of: "twice", row: 0) == Style().bold())
        #expect(pane.line(1) == "│ │ nested")
        #expect(pane.line(3) == String(repeating: "─", count: 58))
        #expect(pane.line(4) == "end")
    }

    @Test func rTogglesTheRawTextAndTheHelpAndStatusBarSaySo() throws {
        var state = Self.previewing("# Shopping\n- [ ] milk")
        #expect(try Pane(state).line(0) == "Shopping")
        #expect(text(view(state, Self.size)).lines.last?.contains("r raw") == true)
        _ = send("r", to: &state)
        var pane = try Pane(state)
        #expect(pane.lines.prefix(2) == ["# Shopping", "- [ ] milk"])
        #expect(pane.style(of: "Shopping", row: 0) == .plain)
        #expect(text(view(state, Self.size)).lines.last?.contains("Preview: raw text") == true)
        _ = send("r", to: &state)
        pane = try Pane(state)
        #expect(pane.lines.prefix(2) == ["Shopping", "════════"])
        // The help screen names the key.
        _ = send("?", to: &state)
        #expect(
            text(view(state, Size(width: 100, height: 40))).lines.contains {
                $0.contains("L ^] r       link / raw preview")
            })
    }

    @Test func noColorKeepsTheMeaningInAttributes() throws {
        let body =
            "# Title\n**b** *i* `code` [link](https://x.example)\n```\nblock\n```\n| a | b |\n|---|---|\n| 1 | 2 |"
        let pane = try Pane(Self.previewing(body, theme: Theme(roles: [:], noColor: true)))
        #expect(pane.screen.cells.allSatisfy { $0.style.foreground == .default && $0.style.background == .default })
        #expect(pane.style(of: "Title", row: 0) == Style().bold().underline())
        #expect(pane.style(of: "b", row: 2) == Style().bold())
        #expect(pane.style(of: "i", row: 2) == Style().italic())
        #expect(pane.style(of: "code", row: 2) == Style().dim())
        #expect(pane.style(of: "link", row: 2) == Style().underline())
        #expect(pane.style(of: "block", row: 4) == Style().dim())
    }

    @Test func asciiOnlyUsesTheAppsFallbacks() throws {
        let body = "# Title\n- [ ] open\n- [x] done\n- bullet\n> quote\n| a | b |\n|---|---|\n| 1 | 2 |\n---"
        let pane = try Pane(Self.previewing(body, ascii: true))
        #expect(pane.screen.cells.allSatisfy { $0.isContinuation || $0.grapheme.utf8.allSatisfy { $0 < 0x80 } })
        #expect(
            pane.lines.prefix(10) == [
                "Title", "=====", "[ ] open", "[x] done", "* bullet", "| quote", "a | b", "--+--", "1 | 2",
                String(repeating: "-", count: 58),
            ])
    }

    @Test func hostileTextIsShownNeverSentToTheTerminal() throws {
        let escape = "\u{1B}]0;pwned\u{7}"
        let body = [
            "# head \(escape)", "**bold \u{1B}[2J**", "`code \u{1B}[31m`", "[link \u{9B}](https://x\u{1B}[0m)",
            "| a\u{1B}c | \u{202E}b |", "|---|---|", "| \u{1B}[H | x |", "```", "fence \u{1B}P1$r\u{1B}\\", "```",
            "- [ ] task \u{8}\u{8}\u{8}", "> quote \u{1B}[?1049h",
        ].joined(separator: "\n")
        let pane = try Pane(Self.previewing(body))
        for cell in pane.screen.cells {
            #expect(
                !cell.grapheme.unicodeScalars.contains {
                    $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}"
                },
                "a control character reached the screen: \(cell.grapheme.unicodeScalars.map(\.value))")
        }
        #expect(pane.line(0).hasPrefix("head ␛]0;pwned"))
        #expect(pane.lines.joined().contains("␛[2J"))
    }

    /// Random Markdown, every construct mixed (seeded, the seed printed): the renderer never
    /// crashes at any pane size, and every letter of the note shows, in order, in a pane wide
    /// enough for every line (only the syntax goes: `x` is left out of the words, since a done
    /// task's box `[x]` is syntax).
    @Test func randomNotesNeverLoseAWord() throws {
        let seed = SeededRandom.seed(default: UInt64.random(in: 1...UInt64.max))
        print("MarkdownPreviewTests.randomNotesNeverLoseAWord seed: \(seed) (CLOUDNOTES_SEED=\(seed) replays it)")
        var random = SeededRandom(seed: seed)
        let wide = Size(width: 300, height: 160)
        for round in 0..<150 {
            let body = Self.randomNote(&random)
            let state = Self.previewing(body, size: wide)
            let pane = try Pane(state, size: wide)
            let shown = pane.lines.joined(separator: "\n")
            let letters = { (text: String) in
                String(text.filter { $0.isASCII && $0.isLetter && $0 != "x" && $0 != "X" })
            }
            #expect(
                letters(shown) == letters(body),
                "seed \(seed), round \(round): letters lost or added\n--- note:\n\(body)\n--- pane:\n\(shown)")
            for size in [Size(width: 30, height: 8), Size(width: 100, height: 30), Size(width: 12, height: 5)] {
                var small = Self.previewing(body, size: size)
                _ = view(small, size)
                _ = send("]]", to: &small)
                _ = view(small, size)
            }
        }
    }

    /// A long random note previewed at its last task (seeded, the seed printed): read from the
    /// `MarkdownIndex` checkpoint before it, the pane is the same as read from the top.
    @Test func theIndexShowsWhatReadingFromTheTopShows() throws {
        let seed = SeededRandom.seed(default: UInt64.random(in: 1...UInt64.max))
        print("MarkdownPreviewTests.theIndexShowsWhatReadingFromTheTopShows seed: \(seed)")
        var random = SeededRandom(seed: seed)
        for round in 0..<6 {
            let body = (0..<60).map { _ in Self.randomNote(&random) }.joined(separator: "\n") + "\n\n- [ ] the end"
            var plain = Self.previewing(body)
            let tasks = try #require(plain.preview?.tasks)
            plain.taskIndex = max(0, tasks.count - 1)
            _ = send("]", to: &plain)
            var indexed = plain
            indexed.preview?.markdownIndex = MarkdownIndex(body)
            #expect(indexed.preview?.markdownIndex != MarkdownIndex(""), "seed \(seed), round \(round): no checkpoint")
            let expected = view(plain, Self.size)
            let shown = view(indexed, Self.size)
            #expect(
                shown == expected,
                "seed \(seed), round \(round), last task on line \(tasks.last?.line ?? 0):\n\(text(shown))\n---\n\(text(expected))"
            )
        }
    }

    static let words = ["milk", "bread", "eggs", "apple", "tea", "cheese", "soup", "rice", "jam", "oat"]
    static let pieces = [
        "**", "*", "_", "__", "~~", "`", "```", "[", "]", "(", ")", "[[", "]]", "<", ">", "|", "#", "- ", "1. ", "\\",
        "- [ ] ", "- [x] ", "> ", "    ", "---", "|---|", ":", "!", "https://",
    ]

    static func randomNote(_ random: inout SeededRandom) -> String {
        (0..<random.below(30)).map { _ in
            (0..<random.below(8)).map { _ in
                random.below(3) == 0 ? pieces[random.below(pieces.count)] : words[random.below(words.count)]
            }.joined(separator: random.below(4) == 0 ? "" : " ")
        }.joined(separator: "\n")
    }
}
