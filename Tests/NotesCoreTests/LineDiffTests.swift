import Foundation
import NotesTestSupport
import Testing

@testable import NotesCore

@Suite struct LineDiffTests {
    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func linesKeepTheirTerminatorsAndRoundTrip() {
        #expect(LineDiff.lines("").isEmpty)
        #expect(LineDiff.lines("a") == [Self.bytes("a")])
        #expect(LineDiff.lines("a\n") == [Self.bytes("a\n")])
        #expect(LineDiff.lines("a\r\nb") == [Self.bytes("a\r\n"), Self.bytes("b")])
        #expect(LineDiff.lines("\n\n") == [Self.bytes("\n"), Self.bytes("\n")])
        #expect(LineDiff.lines("x\ry") == [Self.bytes("x\ry")])
        for text in ["", "a", "a\n", "a\r\nb\r\n", "\n\n", "x\ry\n", "caf\u{E9}\ncafe\u{301}", "\u{1F600}\n\u{0}\n"] {
            #expect(Array(LineDiff.join(LineDiff.lines(text)).utf8) == Array(text.utf8), "\(text.debugDescription)")
        }
    }

    @Test func nfcAndNfdLinesAreDifferent() {
        let nfc = "caf\u{E9}\n"
        let nfd = "cafe\u{301}\n"
        #expect(nfc == nfd)  // Swift's == is canonical equivalence: the reason we compare bytes
        #expect(LineDiff.hunks(from: nfc, to: nfd) == [LineDiff.Hunk(old: 0..<1, new: 0..<1)])
        #expect(LineDiff.hunks(from: nfc, to: nfc).isEmpty)
    }

    @Test func simpleHunks() {
        #expect(LineDiff.hunks(from: "", to: "") == [])
        #expect(LineDiff.hunks(from: "", to: "a\n") == [LineDiff.Hunk(old: 0..<0, new: 0..<1)])
        #expect(LineDiff.hunks(from: "a\n", to: "") == [LineDiff.Hunk(old: 0..<1, new: 0..<0)])
        #expect(LineDiff.hunks(from: "a\nb\nc\n", to: "a\nc\n") == [LineDiff.Hunk(old: 1..<2, new: 1..<1)])
        #expect(
            LineDiff.hunks(from: "a\nb\nc\n", to: "a\nB\nc\nd\n")
                == [LineDiff.Hunk(old: 1..<2, new: 1..<2), LineDiff.Hunk(old: 3..<3, new: 3..<4)])
        // A missing final newline makes the last line a different line.
        #expect(LineDiff.hunks(from: "a\nb", to: "a\nb\n") == [LineDiff.Hunk(old: 1..<2, new: 1..<2)])
    }

    /// Pinned by mergeAlgoVersion 1: where several shortest scripts exist, this is the one.
    @Test func tieBreakIsPinned() {
        #expect(LineDiff.matches([0, 1], [1, 0]).map { [$0.0, $0.1] } == [[1, 0]])
        #expect(LineDiff.matches([0, 1, 2], [2, 1, 0]).map { [$0.0, $0.1] } == [[2, 0]])
        #expect(LineDiff.matches([0, 1, 0], [1, 0, 1]).map { [$0.0, $0.1] } == [[1, 0], [2, 1]])
    }

    @Test func overTheEditLimitTheMiddleIsReplacedWholesale() {
        #expect(LineDiff.myers([0, 1, 2], [1, 2, 3], maxD: 1) == nil)
        #expect(LineDiff.myers([0, 1, 2], [1, 2, 3], maxD: 2)?.map { [$0.0, $0.1] } == [[1, 0], [2, 1]])
        // Through `matches` with the real limit: 2049 distinct lines replaced by 2049 others.
        let a = Array(0..<2049)
        let b = Array(10_000..<12_049) + [5]
        let pairs = LineDiff.matches(a, b)
        #expect(pairs.isEmpty, "more than maxEditDistance edits: no matches are reported")
    }

    static func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
        var row = [Int](repeating: 0, count: b.count + 1)
        for x in a {
            var prev = 0
            for j in 0..<b.count {
                let saved = row[j + 1]
                row[j + 1] = x == b[j] ? prev + 1 : max(row[j + 1], row[j])
                prev = saved
            }
        }
        return row[b.count]
    }

    /// The diff is a valid matching of maximal size (a shortest edit script), and its hunks
    /// turn the old text into the new one.
    @Test func randomDiffsAreMinimalAndApply() {
        for seed in UInt64(1)...400 {
            var rng = SeededRandom(seed: seed)
            let a = (0..<Int.random(in: 0...14, using: &rng)).map { _ in Int.random(in: 0...3, using: &rng) }
            let b = (0..<Int.random(in: 0...14, using: &rng)).map { _ in Int.random(in: 0...3, using: &rng) }
            let pairs = LineDiff.matches(a, b)
            var ok = true
            for (index, pair) in pairs.enumerated() {
                if a[pair.0] != b[pair.1] { ok = false }
                if index > 0, pair.0 <= pairs[index - 1].0 || pair.1 <= pairs[index - 1].1 { ok = false }
            }
            #expect(ok, "seed \(seed): matches are not an increasing matching of equal lines")
            #expect(pairs.count == Self.lcsLength(a, b), "seed \(seed): not a longest common subsequence")

            let old = a.map { "l\($0)\n" }.joined()
            let new = b.map { "l\($0)\n" }.joined()
            let oldLines = LineDiff.lines(old)
            let newLines = LineDiff.lines(new)
            var rebuilt: [[UInt8]] = []
            var at = 0
            for hunk in LineDiff.hunks(from: old, to: new) {
                rebuilt += oldLines[at..<hunk.old.lowerBound]
                rebuilt += newLines[hunk.new]
                at = hunk.old.upperBound
            }
            rebuilt += oldLines[at...]
            #expect(rebuilt == newLines, "seed \(seed): hunks do not apply")
        }
    }
}
