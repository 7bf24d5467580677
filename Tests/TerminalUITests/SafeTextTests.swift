import TerminalUI
import Testing

@Suite struct SafeTextTests {
    @Test func titleSequenceIsShownAsVisibleCharacters() {
        #expect(SafeText.sanitize("\u{1B}]0;pwned\u{7}") == "␛]0;pwned␇")
    }

    @Test func clearScreenSequenceIsShownAsVisibleCharacters() {
        #expect(SafeText.sanitize("before\u{1B}[2Jafter") == "before␛[2Jafter")
    }

    @Test func sanitizedEscapesDrawAsTextInABuffer() {
        var buffer = Buffer(size: Size(width: 20, height: 2))
        buffer.write(SafeText.sanitize("\u{1B}]0;title\u{7}"), at: Point(x: 0, y: 0))
        buffer.write(SafeText.sanitize("\u{1B}[2J\u{202E}x"), at: Point(x: 0, y: 1))
        #expect(
            buffer
                == Buffer(lines: [
                    "␛]0;title␇" + String(repeating: " ", count: 10),
                    "␛[2J<U+202E>x" + String(repeating: " ", count: 7),
                ]))
    }

    @Test func bidiOverrideIsVisibleInALineAndDroppedInABlock() {
        #expect(SafeText.sanitize("abc\u{202E}fed") == "abc<U+202E>fed")
        #expect(SafeText.sanitize("abc\u{202E}fed", mode: .block) == "abcfed")
        #expect(SafeText.sanitize("\u{2066}x\u{2069}\u{061C}\u{200F}") == "<U+2066>x<U+2069><U+061C><U+200F>")
    }

    @Test func invisibleFormatCharactersAreMarkedButZWJStays() {
        #expect(SafeText.sanitize("a\u{200B}b\u{FEFF}c\u{AD}") == "a<U+200B>b<U+FEFF>c<U+00AD>")
        #expect(SafeText.sanitize("👩‍💻") == "👩‍💻")
        let scotland = "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        #expect(SafeText.sanitize(scotland) == scotland)
        // Tag characters anywhere else would be invisible text.
        #expect(SafeText.sanitize("💻\u{E0067}x") == "💻<U+E0067>x")
        #expect(SafeText.sanitize("1\u{E0031}") == "1<U+E0031>")
        #expect(SafeText.sanitize("a\u{2028}b") == "a<U+2028>b")
    }

    @Test func c0ControlsAndDelBecomeControlPictures() {
        #expect(SafeText.sanitize("a\rb") == "a␍b")
        #expect(SafeText.sanitize("a\u{8}b\u{0}\u{7F}") == "a␈b␀␡")
    }

    @Test func c1ControlsBecomeCodePointMarkers() {
        #expect(SafeText.sanitize("\u{9B}31mred") == "<U+009B>31mred")
        #expect(SafeText.sanitize("\u{85}\u{80}") == "<U+0085><U+0080>")
    }

    @Test func lineBreaksDependOnTheMode() {
        #expect(SafeText.sanitize("a\nb\r\nc") == "a⏎b⏎c")
        #expect(SafeText.sanitize("a\nb\r\nc", mode: .block) == "a\nb\nc")
    }

    @Test func tabsBecomeSpaces() {
        #expect(SafeText.sanitize("a\tb") == "a b")
        #expect(SafeText.sanitize("a\tb\n\tc", mode: .block) == "a   b\n    c")
    }

    @Test func combiningMarksAreCappedPerGrapheme() {
        let zalgo = "e" + String(repeating: "\u{301}", count: 30) + "x"
        let safe = SafeText.sanitize(zalgo)
        #expect(safe == "e\u{301}\u{301}\u{301}\u{301}x")
        #expect(SafeText.sanitize("e\u{301}\u{302}") == "e\u{301}\u{302}")
    }

    @Test func ordinaryTextIsUnchanged() {
        let text = "Café 日本語 한국어 👍🏽 🇩🇪 e\u{301} [2J ok"
        #expect(SafeText.sanitize(text) == text)
        #expect(SafeText.sanitize(text, mode: .block) == text)
    }

    @Test func noOutputScalarIsAControlOrBidiCharacter() {
        var samples = (UInt32(0)..<0x300).compactMap { Unicode.Scalar($0).map { "a" + String($0) + "b" } }
        samples += ["\u{1B}]0;t\u{7}", "\u{1B}[2J", "\r", "\r\n", "\u{202E}", "\u{2066}", "\u{200E}", "\u{FEFF}"]
        samples.append(String(String.UnicodeScalarView((UInt32(0)..<0x300).compactMap { Unicode.Scalar($0) })))
        for sample in samples {
            for mode in [SafeText.Mode.line, .block] {
                for scalar in SafeText.sanitize(sample, mode: mode).unicodeScalars {
                    let v = scalar.value
                    let isLineBreak = mode == .block && v == 0x0A
                    #expect(
                        isLineBreak || !(v < 0x20 || (0x7F...0x9F).contains(v)), "\(mode) \(sample.debugDescription)")
                    #expect(
                        v == 0x200D || scalar.properties.generalCategory != .format || (0xE0020...0xE007F).contains(v),
                        "\(mode) \(sample.debugDescription)")
                }
            }
        }
    }
}
