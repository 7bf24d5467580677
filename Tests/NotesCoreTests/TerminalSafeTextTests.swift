import NotesTestSupport
import Testing

@testable import NotesCore

@Suite struct TerminalSafeTextTests {
    func line(_ s: String) -> String { TerminalSafeText.sanitize(s, mode: .line) }
    func block(_ s: String) -> String { TerminalSafeText.sanitize(s, mode: .block) }

    /// Printable ASCII passes through untouched without the grapheme walk; any other text is
    /// walked: both give what the walk gives, over random texts (seeded, replayable).
    @Test func theASCIIPathGivesWhatTheGraphemeWalkGives() {
        let seed = SeededRandom.seed(default: 20_261_129)
        var random = SeededRandom(seed: seed)
        let others = [
            "\t", "\n", "\r\n", "\r", "\u{1B}", "\u{7F}", "\u{85}", "\u{AD}", "\u{202E}", "é", "e\u{301}", "東", "👩‍💻",
        ]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<random.below(40) {
                text.append(Character(Unicode.Scalar(UInt8(0x20 + random.below(0x5F)))))
            }
            if random.below(3) == 0 {
                let at = text.index(text.startIndex, offsetBy: random.below(text.count + 1))
                text.insert(contentsOf: others[random.below(others.count)], at: at)
            }
            for mode in [TerminalSafeText.Mode.line, .block] {
                let walked = TerminalSafeText.sanitizedByCharacter(text, mode: mode)
                #expect(TerminalSafeText.sanitize(text, mode: mode) == walked, "seed \(seed): \(text.debugDescription)")
                if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { #expect(walked == text) }
            }
        }
    }

    /// Text that is not ASCII is given back as it is when one pass over its scalars finds
    /// nothing to change (`isUnchanged`), else walked: both give what the walk gives, over
    /// random texts of accents, runs of marks, emoji sequences and flags (a subdivision flag's
    /// tag characters too), CJK, Hangul, separators and controls (seeded, replayable).
    @Test func textThatIsNotASCIIComesOutAsTheGraphemeWalkGivesIt() {
        let seed = SeededRandom.seed(default: 20_261_130)
        var random = SeededRandom(seed: seed)
        let pieces = [
            "a", " ", "Z", "é", "e\u{301}", "\u{301}", "\u{302}\u{303}", "\u{301}\u{302}\u{303}\u{304}\u{305}",
            "\u{20DD}", "東京", "한", "👩‍💻", "👍🏽", "🇯🇵",
            "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", "\u{E0067}", "\u{200D}", "\u{200B}", "\u{2028}",
            "\u{AD}", "\u{61C}", "\u{202E}", "\u{FEFF}", "\u{85}", "\t", "\n", "\r\n", "\u{1B}", "ß", "ﬁ", "\u{FE0F}",
        ]
        var unchanged = 0
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<random.below(12) { text += pieces[random.below(pieces.count)] }
            for mode in [TerminalSafeText.Mode.line, .block] {
                let walked = TerminalSafeText.sanitizedByCharacter(text, mode: mode)
                #expect(TerminalSafeText.sanitize(text, mode: mode) == walked, "seed \(seed): \(text.debugDescription)")
            }
            if TerminalSafeText.isUnchanged(text) { unchanged += 1 }
        }
        // Both ways were taken.
        #expect(unchanged > 300 && unchanged < 2_700, "seed \(seed): \(unchanged) of 3,000 unchanged")
    }

    @Test func escapeSequencesBecomeVisibleText() {
        #expect(line("\u{1B}]0;pwned\u{07}title") == "␛]0;pwned␇title")
        #expect(line("\u{1B}[2J\u{1B}[31mred") == "␛[2J␛[31mred")
        #expect(block("a\u{08}\u{08}b\u{7F}") == "a␈␈b␡")
        #expect(line("nul\u{0}") == "nul␀")
    }

    @Test func c1ControlsAreShownAsCodePoints() {
        #expect(line("\u{9B}31m") == "<U+009B>31m")
        #expect(block("x\u{85}y\u{80}") == "x<U+0085>y<U+0080>")
    }

    @Test func bidiOverridesAreMarkersInLinesAndDroppedInBlocks() {
        let spoof = "invoice\u{202E}fdp.exe\u{202C}"
        #expect(line(spoof) == "invoice<U+202E>fdp.exe<U+202C>")
        #expect(block(spoof) == "invoicefdp.exe")
        #expect(line("\u{2066}a\u{2069}\u{200F}\u{061C}") == "<U+2066>a<U+2069><U+200F><U+061C>")
        #expect(block("zero\u{200B}width") == "zerowidth")
    }

    @Test func lineBreaksCarriageReturnsAndTabs() {
        #expect(line("a\nb") == "a⏎b")
        #expect(block("a\nb") == "a\nb")
        #expect(block("a\r\nb") == "a\nb")
        #expect(line("a\r\nb") == "a⏎b")
        #expect(line("progress 10%\rprogress 99%") == "progress 10%␍progress 99%")
        #expect(block("over\rwrite") == "over␍write")
        #expect(block("ab\tc\n\td") == "ab  c\n    d")
        #expect(line("a\tb") == "a b")
    }

    @Test func emojiSequencesStayWhole() {
        for text in ["👨‍👩‍👧", "👍🏽", "🇯🇵", "❤️", "1️⃣", "🏳️‍🌈"] {
            #expect(line(text) == text)
            #expect(block(text) == text)
        }
    }

    @Test func emojiTagSequencesAreNotBrokenIntoMarkers() {
        let scotland = "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        #expect(line(scotland) == scotland)
        #expect(block("flag " + scotland) == "flag " + scotland)
        // A tag character that is not part of an emoji is still shown.
        #expect(line("a\u{E0041}") == "a<U+E0041>")
        #expect(line("1\u{E0041}") == "1<U+E0041>")
        #expect(block("🎉\u{E0041}x") == "🎉x")
    }

    @Test func combiningMarksAreCappedPerCharacter() {
        let zalgo = "e" + String(repeating: "\u{301}", count: 30) + "x"
        let out = line(zalgo)
        #expect(out.unicodeScalars.count == 1 + TerminalSafeText.maxCombiningMarks + 1)
        #expect(line("e\u{301}\u{302}") == "e\u{301}\u{302}")
        #expect(line("Café naïve 日本語") == "Café naïve 日本語")
    }

    @Test func noControlCharacterEverSurvives() {
        let seed = SeededRandom.seed(default: 2018)
        var rng = SeededRandom(seed: seed)
        var pool: [Unicode.Scalar] = (0..<0x20).map { Unicode.Scalar($0)! } + (0x7F...0x9F).map { Unicode.Scalar($0)! }
        pool += Array(
            "aé日🎉\u{301}\u{200D}\u{FE0F}\u{202E}\u{2066}\u{200B}\u{FEFF}\u{061C}\u{2028}\u{E0067}🏴".unicodeScalars)
        for _ in 0..<2000 {
            let text = rng.string(from: pool, count: Int.random(in: 0...20, using: &rng))
            for (mode, out) in [("line", line(text)), ("block", block(text))] {
                for scalar in out.unicodeScalars {
                    let v = scalar.value
                    let allowedLF = mode == "block" && v == 0x0A
                    #expect(
                        allowedLF || !(v < 0x20 || (0x7F...0x9F).contains(v)),
                        "seed \(seed) \(mode): \(text.debugDescription) → \(out.debugDescription)")
                    #expect(
                        ![
                            0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066,
                            0x2067, 0x2068, 0x2069, 0x200B, 0xFEFF,
                        ].contains(v), "seed \(seed) \(mode): \(text.debugDescription)")
                }
            }
        }
    }
}
