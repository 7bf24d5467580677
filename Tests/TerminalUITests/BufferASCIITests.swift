import NotesTestSupport
import Testing

@testable import TerminalUI

@Suite struct BufferASCIITests {
    /// `write` over the bytes of ASCII text leaves the buffer the grapheme walk leaves and returns
    /// the same column: random texts (controls, a combining mark or a wide character after ASCII,
    /// at the right edge too) written at random points and clips over rows that hold wide
    /// characters (seeded, replayable).
    @Test func writingASCIIBytesIsWhatTheGraphemeWalkWrites() {
        let seed = SeededRandom.seed(default: 20_261_130)
        var random = SeededRandom(seed: seed)
        let others = ["é", "\u{301}", "東", "👩‍💻", "\u{200B}", "\r\n", "\t", "\u{7F}"]
        for round in 0..<3_000 {
            var start = Buffer(size: Size(width: 12, height: 2))
            for _ in 0..<random.below(4) {
                start.write("東京", at: Point(x: random.below(12) - 1, y: random.below(2)))
            }
            var text = ""
            for _ in 0..<random.below(20) {
                if random.below(6) == 0 {
                    text += others[random.below(others.count)]
                } else {
                    text.append(Character(Unicode.Scalar(UInt8(0x20 + random.below(0x5F)))))
                }
            }
            let point = Point(x: random.below(16) - 3, y: random.below(3) - 1)
            let clip =
                random.below(2) == 0
                ? nil : Rect(origin: Point(x: random.below(6), y: 0), size: Size(width: random.below(12), height: 2))
            var bytes = start
            var walked = start
            let end = bytes.write(text, at: point, clipTo: clip)
            let region = (clip ?? walked.area).intersection(walked.area)
            let walkedEnd =
                point.y >= region.minY && point.y < region.maxY
                ? walked.writeByCharacter(text, at: point, style: .plain, region: region) : point.x
            #expect(
                bytes == walked,
                "seed \(seed) round \(round): \(text.debugDescription) at \(point) clip \(String(describing: clip))")
            #expect(end == walkedEnd, "seed \(seed) round \(round): \(text.debugDescription)")
        }
    }

    @Test func aCombiningMarkJustPastTheEdgeJoinsTheLastColumn() {
        var buffer = Buffer(size: Size(width: 3, height: 1))
        buffer.write("abe\u{301}x", at: .zero)
        #expect(buffer.lines == ["abe\u{301}"])
    }
}
