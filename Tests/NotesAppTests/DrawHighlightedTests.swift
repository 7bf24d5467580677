import NotesCore
import NotesTestSupport
import TerminalUI
import Testing

@testable import NotesApp

@Suite struct DrawHighlightedTests {
    /// `drawHighlighted`, which writes printable ASCII in runs of one style, leaves the cells and
    /// returns the column that writing each character on its own (the code before runs, kept
    /// below) leaves: random texts with controls, marks, wide characters and emoji, random
    /// matches, points and rects (past the buffer's edges too), over rows that hold wide
    /// characters (seeded, replayable).
    @Test func runsOfPlainCharactersLeaveWhatACharacterAtATimeLeaves() {
        let seed = SeededRandom.seed(default: 20_261_130)
        var random = SeededRandom(seed: seed)
        let others = ["é", "e\u{301}", "東", "👩‍💻", "🇫🇷", "\u{200B}", "\r\n", "\t", "\u{1B}", "\u{7F}", "\u{202E}"]
        let style = Style(foreground: .blue)
        let highlight = Style(attributes: .bold)
        for round in 0..<3_000 {
            var start = Buffer(size: Size(width: 14, height: 2))
            for _ in 0..<random.below(3) {
                start.write("東京", at: Point(x: random.below(14) - 1, y: random.below(2)))
            }
            var text = ""
            let length = random.below(24)
            for _ in 0..<length {
                if random.below(5) == 0 {
                    text += others[random.below(others.count)]
                } else {
                    text.append(Character(Unicode.Scalar(UInt8(0x20 + random.below(0x5F)))))
                }
            }
            var matches: [Range<Int>] = []
            var from = 0
            while from < text.count, random.below(3) > 0 {
                let lower = from + random.below(4)
                let upper = lower + 1 + random.below(4)
                matches.append(lower..<upper)
                from = upper + random.below(3)
            }
            let point = Point(x: random.below(18) - 3, y: random.below(3) - 1)
            let rect = Rect(
                origin: Point(x: random.below(8) - 1, y: random.below(2)),
                size: Size(width: random.below(18), height: 1 + random.below(2)))
            var runs = start
            var characters = start
            let end = drawHighlighted(
                text, matches: matches, style: style, highlight: highlight, at: point, in: rect, on: &runs)
            let expected = characterAtATime(
                text, matches: matches, style: style, highlight: highlight, at: point, in: rect, on: &characters)
            let context = "seed \(seed) round \(round): \(text.debugDescription) \(matches) at \(point) in \(rect)"
            #expect(runs == characters, "\(context)")
            #expect(end == expected, "\(context)")
        }
    }

    @Test func aRowTooLongEndsInAnEllipsisWithItsMatchHighlighted() {
        var buffer = Buffer(size: Size(width: 8, height: 1))
        let end = drawHighlighted(
            "a project plan", matches: [2..<9], style: .plain, highlight: Style(attributes: .bold), at: .zero,
            in: buffer.area, on: &buffer)
        #expect(buffer.lines == ["a proje…"])
        #expect(end == 8)
        #expect(buffer[1, 0].style == .plain && buffer[2, 0].style.isBold && buffer[6, 0].style.isBold)
        #expect(buffer[7, 0].style == .plain)
    }

    /// The code before runs: a write per character.
    private func characterAtATime(
        _ text: String, matches: [Range<Int>], style: Style, highlight: Style, at point: Point, in rect: Rect,
        on buffer: inout Buffer
    ) -> Int {
        var x = point.x
        var matchIndex = 0
        let fits = TextWidth.width(of: TerminalSafeText.sanitize(text)) <= rect.maxX - point.x
        let limit = fits ? rect.maxX : rect.maxX - 1
        for (offset, character) in text.enumerated() {
            while matchIndex < matches.count && matches[matchIndex].upperBound <= offset { matchIndex += 1 }
            let isMatch = matchIndex < matches.count && matches[matchIndex].contains(offset)
            let isPlain = character.asciiValue.map { $0 >= 0x20 && $0 < 0x7F } ?? false
            let shown = isPlain ? String(character) : TerminalSafeText.sanitize(String(character))
            let width = TextWidth.width(of: shown)
            if x + width > limit {
                return buffer.write("…", at: Point(x: x, y: point.y), style: style, clipTo: rect)
            }
            x = buffer.write(shown, at: Point(x: x, y: point.y), style: isMatch ? highlight : style, clipTo: rect)
        }
        return x
    }
}
