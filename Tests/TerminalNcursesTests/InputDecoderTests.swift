import Testing

@testable import TerminalNcurses
@testable import TerminalUI

/// What the ncurses backend reports for the bytes terminals send (xterm, tmux's `screen`).
@Suite struct InputDecoderTests {
    private func decode(_ text: String, flush: Bool = true) -> [InputEvent] {
        var decoder = InputDecoder()
        var events = decoder.feed(text.unicodeScalars.map { .scalar($0) })
        if flush { events += decoder.flush() }
        return events
    }

    @Test func printableTextIsOneKeyPerCharacterWithCombiningMarksKept() {
        #expect(decode("je\u{301}") == [.char("j"), .char("é")])
    }

    @Test func controlBytesAreNamedKeys() {
        #expect(decode("\r\t\u{7F}\u{8}") == [.key(.enter), .key(.tab), .key(.backspace), .key(.backspace)])
        #expect(decode("\u{3}\u{13}") == [.ctrl("c"), .ctrl("s")])
    }

    @Test func aLoneEscapeIsEscapeOnceTheDelayRunsOut() {
        var decoder = InputDecoder()
        #expect(decoder.feed([.scalar("\u{1B}")]) == [])
        #expect(decoder.hasPending)
        // ncurses gave it after its own delay: the terminal flushes it at once.
        #expect(decoder.hasLoneEscape)
        #expect(decoder.flush() == [.key(.escape)])
        // The start of a longer sequence still waits the delay for the rest.
        #expect(decoder.feed([.scalar("\u{1B}"), .scalar("[")]) == [])
        #expect(decoder.hasPending && !decoder.hasLoneEscape)
        let rest = "1;5C".unicodeScalars.map { InputDecoder.Unit.scalar($0) }
        #expect(decoder.feed(rest) == [.key(.right, modifiers: .control)])
        #expect(!decoder.hasPending)
    }

    @Test func escapeThenACharacterIsAlt() {
        #expect(decode("\u{1B}b") == [.alt("b")])
    }

    @Test func altBackspaceIsEscapeThenDeleteOrNcursesBackspaceKey() {
        #expect(decode("\u{1B}\u{7F}x") == [.key(.backspace, modifiers: .alt), .char("x")])
        #expect(decode("\u{1B}\u{8}") == [.key(.backspace, modifiers: .alt)])
        // ncurses decodes DEL to KEY_BACKSPACE when terminfo says kbs=^?: ESC then that key.
        var decoder = InputDecoder()
        #expect(
            decoder.feed([.scalar("\u{1B}"), .key(.backspace, modifiers: [])]) == [.key(.backspace, modifiers: .alt)])
        #expect(!decoder.hasPending)
        // A lone Esc before another decoded key, after the delay, stays Escape.
        #expect(decoder.feed([.scalar("\u{1B}")]) == [])
        #expect(decoder.flush() == [.key(.escape)])
        #expect(decoder.feed([.key(.backspace, modifiers: [])]) == [.key(.backspace)])
    }

    @Test func shiftedAndControlArrowsForSelectionAndWords() {
        #expect(decode("\u{1B}[1;2A\u{1B}[1;2B") == [.key(.up, modifiers: .shift), .key(.down, modifiers: .shift)])
        #expect(decode("\u{1B}[1;5D") == [.key(.left, modifiers: .control)])
        #expect(decode("\u{0}\u{17}\u{B}\u{15}") == [.ctrl(" "), .ctrl("w"), .ctrl("k"), .ctrl("u")])
    }

    @Test func modifiedArrowsFromCSISequences() {
        #expect(decode("\u{1B}[1;5C") == [.key(.right, modifiers: .control)])
        #expect(decode("\u{1B}[1;3D") == [.key(.left, modifiers: .alt)])
        #expect(decode("\u{1B}[A\u{1B}OB") == [.key(.up), .key(.down)])
        #expect(decode("\u{1B}[5~\u{1B}[6~\u{1B}[3~") == [.key(.pageUp), .key(.pageDown), .key(.delete)])
    }

    @Test func bracketedPasteIsOneEventWithLineBreaksAsLF() {
        let events = decode("x\u{1B}[200~line 1\r\nline 2\rj\u{1B}[201~y")
        #expect(events == [.char("x"), .paste("line 1\nline 2\nj"), .char("y")])
    }

    @Test func aPasteSpanningSeveralReadsStaysOpen() {
        var decoder = InputDecoder()
        #expect(decoder.feed("\u{1B}[200~abc".unicodeScalars.map { .scalar($0) }) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.feed("def\u{1B}[201~".unicodeScalars.map { .scalar($0) }) == [.paste("abcdef")])
    }

    @Test func aPasteHoldingEscapeSequencesKeepsThemAsText() {
        let events = decode("\u{1B}[200~\u{1B}]0;title\u{7}\u{1B}[2J\u{1B}[201~")
        #expect(events == [.paste("\u{1B}]0;title\u{7}\u{1B}[2J")])
    }

    @Test func sgrMouseReports() {
        #expect(decode("\u{1B}[<0;5;3M") == [.mouse(.click(Point(x: 4, y: 2)))])
        #expect(decode("\u{1B}[<64;1;1M\u{1B}[<65;1;1M") == [.mouse(.wheelUp(.zero)), .mouse(.wheelDown(.zero))])
        #expect(decode("\u{1B}[<0;5;3m") == [])
    }

    @Test func terminfoExtendedKeyNames() {
        let ctrlRight = InputDecoder.extendedKey(named: "kRIT5")
        #expect(ctrlRight?.0 == .right && ctrlRight?.1 == .control)
        let altLeft = InputDecoder.extendedKey(named: "kLFT3")
        #expect(altLeft?.0 == .left && altLeft?.1 == .alt)
        #expect(InputDecoder.extendedKey(named: "kf5") == nil)
    }

    @Test func anUnknownSequenceIsDroppedNotTyped() {
        #expect(decode("\u{1B}[99xq") == [.char("q")])
    }
}
