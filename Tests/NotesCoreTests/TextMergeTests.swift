import Foundation
import NotesTestSupport
import Testing

@testable import NotesCore

@Suite struct TextMergeTests {
    static func merge(_ base: String, _ ours: String, _ theirs: String) -> (text: String, hasConflicts: Bool) {
        TextMerge.merge(base: base, ours: ours, theirs: theirs, oursLabel: "A", theirsLabel: "B")
    }

    static func same(_ x: String, _ y: String) -> Bool { x.utf8.elementsEqual(y.utf8) }

    @Test func versionIsPinned() {
        #expect(TextMerge.mergeAlgoVersion == 1)
        #expect(LineDiff.maxEditDistance == 2048)
    }

    @Test func oneSidedChangesTakeThatSide() {
        let base = "one\ntwo\nthree\n"
        let ours = "one\n2\nthree\n"
        #expect(Self.merge(base, ours, base) == (ours, false))
        #expect(Self.merge(base, base, ours) == (ours, false))
        #expect(Self.merge(base, ours, ours) == (ours, false))
        #expect(Self.merge(base, "", base) == ("", false))
        #expect(Self.merge("", "", "") == ("", false))
    }

    @Test func identicalChangesOnBothSidesAreNotAConflict() {
        let r = Self.merge("a\nb\nc\n", "a\nB\nc\nd\n", "a\nB\nc\nd\n")
        #expect(r.text == "a\nB\nc\nd\n" && !r.hasConflicts)
        let ins = Self.merge("a\n", "new\na\n", "new\na\n")
        #expect(ins.text == "new\na\n" && !ins.hasConflicts)
    }

    @Test func nonOverlappingEditsMergeCleanly() {
        let base = "1\n2\n3\n4\n5\n"
        let r = Self.merge(base, "one\n2\n3\n4\n5\n", "1\n2\n3\n4\nfive\n")
        #expect(r.text == "one\n2\n3\n4\nfive\n" && !r.hasConflicts)
        // One unchanged line between the two edits is enough.
        let r2 = Self.merge("1\n2\n3\n", "one\n2\n3\n", "1\n2\nthree\n")
        #expect(r2.text == "one\n2\nthree\n" && !r2.hasConflicts)
        // Insertion on one side, deletion elsewhere on the other.
        let r3 = Self.merge(base, "1\n2\nx\n3\n4\n5\n", "1\n2\n3\n4\n")
        #expect(r3.text == "1\n2\nx\n3\n4\n" && !r3.hasConflicts)
    }

    @Test func adjacentLineEditsConflictAsInDiff3() {
        let r = Self.merge("a\nb\nc\n", "A\nb\nc\n", "a\nB\nc\n")
        #expect(r.hasConflicts)
        #expect(r.text == "<<<<<<< A\nA\nb\n=======\na\nB\n>>>>>>> B\nc\n")
    }

    @Test func overlappingDifferentChangesKeepBothSidesInMarkers() {
        let r = Self.merge("title\nmilk\nend\n", "title\noat milk\nend\n", "title\nsoy milk\nend\n")
        #expect(r.hasConflicts)
        #expect(r.text == "title\n<<<<<<< A\noat milk\n=======\nsoy milk\n>>>>>>> B\nend\n")
        // Labels name the devices; CR/LF in a label cannot break a marker line.
        let labelled = TextMerge.merge(
            base: "x\n", ours: "y\n", theirs: "z\n", oursLabel: "laptop\nevil", theirsLabel: "")
        #expect(labelled.text == "<<<<<<< laptop evil\ny\n=======\nz\n>>>>>>>\n")
    }

    @Test func insertionsAtStartAndEnd() {
        let base = "m\n"
        let r = Self.merge(base, "start\nm\n", "m\nend\n")
        #expect(r.text == "start\nm\nend\n" && !r.hasConflicts)
        let start = Self.merge(base, "s1\nm\n", "s2\nm\n")
        #expect(start.text == "<<<<<<< A\ns1\n=======\ns2\n>>>>>>> B\nm\n" && start.hasConflicts)
        let end = Self.merge(base, "m\ne1\n", "m\ne2\n")
        #expect(end.text == "m\n<<<<<<< A\ne1\n=======\ne2\n>>>>>>> B\n" && end.hasConflicts)
        let empty = Self.merge("", "a\n", "b\n")
        #expect(empty.text == "<<<<<<< A\na\n=======\nb\n>>>>>>> B\n" && empty.hasConflicts)
    }

    @Test func deletionAgainstEditIsAConflict() {
        let r = Self.merge("keep\nline\nkeep2\n", "keep\nkeep2\n", "keep\nline edited\nkeep2\n")
        #expect(r.hasConflicts)
        #expect(r.text == "keep\n<<<<<<< A\n=======\nline edited\n>>>>>>> B\nkeep2\n")
        // Deleted on both sides: gone, no conflict.
        #expect(Self.merge("a\nb\nc\n", "a\nc\n", "a\nc\n") == ("a\nc\n", false))
    }

    @Test func crlfAndMissingFinalNewlineArePreserved() {
        let base = "a\r\nb\r\nc\r\nd"
        let r = Self.merge(base, "A\r\nb\r\nc\r\nd", "a\r\nb\r\nc\r\nD")
        #expect(Self.same(r.text, "A\r\nb\r\nc\r\nD") && !r.hasConflicts)
        let conflict = Self.merge(base, "a\r\nb\r\nc\r\nx", "a\r\nb\r\nc\r\ny")
        #expect(conflict.hasConflicts)
        #expect(Self.same(conflict.text, "a\r\nb\r\nc\r\n<<<<<<< A\r\nx\r\n=======\r\ny\r\n>>>>>>> B\r\n"))
        let noFinal = Self.merge("a\nb", "A\nb", "a\nb")
        #expect(Self.same(noFinal.text, "A\nb"))
        let mixed = Self.merge("a\nb", "x", "y")
        #expect(Self.same(mixed.text, "<<<<<<< A\nx\n=======\ny\n>>>>>>> B\n"))
    }

    @Test func nfcAndNfdAreDifferentEdits() {
        let base = "caf\u{E9}\nbar\n"
        let nfd = "cafe\u{301}\nbar\n"
        let r = Self.merge(base, nfd, base)
        #expect(Self.same(r.text, nfd) && !r.hasConflicts)
        let both = Self.merge(base, nfd, "caf\u{E9}!\nbar\n")
        #expect(both.hasConflicts)
        #expect(Self.same(both.text, "<<<<<<< A\ncafe\u{301}\n=======\ncaf\u{E9}!\n>>>>>>> B\nbar\n"))
    }

    @Test func pinnedGoldenMerge() {
        // mergeAlgoVersion 1: changing these bytes changes merged revision ids on every device.
        let base = "# List\nmilk\neggs\nbread\n\nnotes\n"
        let ours = "# List\nmilk\neggs\nbutter\nbread\n\nnotes\nmore\n"
        let theirs = "# Shopping\nmilk\nbread\n\nnotes\nlast"
        let r = TextMerge.merge(base: base, ours: ours, theirs: theirs, oursLabel: "dev-a", theirsLabel: "dev-b")
        #expect(r.hasConflicts)
        #expect(
            Self.same(
                r.text,
                "# Shopping\nmilk\n<<<<<<< dev-a\neggs\nbutter\n=======\n>>>>>>> dev-b\nbread\n\nnotes\n<<<<<<< dev-a\nmore\n=======\nlast\n>>>>>>> dev-b\n"
            ))
    }

    /// A ~1 MB note with scattered edits on both sides: O(ND) keeps this fast, and every
    /// edit is merged without conflict.
    @Test func largeNoteWithScatteredEditsMergesCleanly() {
        let baseLines = (0..<20_000).map { "line \($0) of a long note, padded to about fifty bytes\n" }
        var ours = baseLines
        var theirs = baseLines
        for i in stride(from: 10, to: 20_000, by: 100) { ours[i] = "ours \(i)\n" }
        for i in stride(from: 60, to: 20_000, by: 100) { theirs[i] = "theirs \(i)\n" }
        var expected = baseLines
        for i in stride(from: 10, to: 20_000, by: 100) { expected[i] = "ours \(i)\n" }
        for i in stride(from: 60, to: 20_000, by: 100) { expected[i] = "theirs \(i)\n" }
        let start = ContinuousClock.now
        let r = Self.merge(baseLines.joined(), ours.joined(), theirs.joined())
        let elapsed = ContinuousClock.now - start
        #expect(!r.hasConflicts && Self.same(r.text, expected.joined()))
        #expect(elapsed < .seconds(10), "took \(elapsed)")
    }

    // MARK: - Properties over seeded random edit scripts

    /// Lines are drawn from a small pool so diffs are ambiguous (repeated lines), including
    /// NFC/NFD twins, CRLF and blank lines; texts may lack a final newline.
    static let pool = ["a\n", "b\n", "c\n", "\n", "a\r\n", "caf\u{E9}\n", "cafe\u{301}\n", "x y\n", "}\n"]

    static func edit(_ lines: [String], _ rng: inout SeededRandom, fresh: (inout SeededRandom) -> String) -> [String] {
        var out = lines
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            switch Int.random(in: 0...2, using: &rng) {
            case 0 where !out.isEmpty: out.remove(at: Int.random(in: 0..<out.count, using: &rng))
            case 1 where !out.isEmpty: out[Int.random(in: 0..<out.count, using: &rng)] = fresh(&rng)
            default:
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    out.insert(fresh(&rng), at: Int.random(in: 0...out.count, using: &rng))
                }
            }
        }
        return out
    }

    static func text(_ lines: [String], dropFinalNewline: Bool) -> String {
        var s = lines.joined()
        if dropFinalNewline, s.utf8.last == 10 { s = String(decoding: s.utf8.dropLast(), as: UTF8.self) }
        return s
    }

    struct Case {
        var seed: UInt64
        var base: String
        var ours: String
        var theirs: String
    }

    static func randomCase(seed: UInt64) -> Case {
        var rng = SeededRandom(seed: seed)
        let fresh: (inout SeededRandom) -> String = { pool.randomElement(using: &$0)! }
        let baseLines = (0..<Int.random(in: 0...10, using: &rng)).map { _ in fresh(&rng) }
        let oursLines = edit(baseLines, &rng, fresh: fresh)
        let theirsLines = edit(baseLines, &rng, fresh: fresh)
        let dropBase = Bool.random(using: &rng)
        return Case(
            seed: seed, base: text(baseLines, dropFinalNewline: dropBase),
            ours: text(oursLines, dropFinalNewline: Int.random(in: 0..<4, using: &rng) == 0 ? !dropBase : dropBase),
            theirs: text(theirsLines, dropFinalNewline: Int.random(in: 0..<4, using: &rng) == 0 ? !dropBase : dropBase))
    }

    static let seeds = UInt64(1)...600

    @Test func idempotentAndOneSidedMergesReturnThatSideByteForByte() {
        for seed in Self.seeds {
            let c = Self.randomCase(seed: seed)
            for x in [c.ours, c.theirs] {
                let both = Self.merge(c.base, x, x)
                #expect(Self.same(both.text, x) && !both.hasConflicts, "seed \(seed): merge(base, x, x) != x")
                let theirsOnly = Self.merge(c.base, c.base, x)
                #expect(
                    Self.same(theirsOnly.text, x) && !theirsOnly.hasConflicts, "seed \(seed): merge(base, base, x) != x"
                )
                let oursOnly = Self.merge(c.base, x, c.base)
                #expect(
                    Self.same(oursOnly.text, x) && !oursOnly.hasConflicts, "seed \(seed): merge(base, x, base) != x")
            }
        }
    }

    /// Swaps the two sections of every conflict block labelled `first`/`second`.
    static func mirror(_ text: String, first: String, second: String) -> String {
        var out: [[UInt8]] = []
        var top: [[UInt8]] = []
        var bottom: [[UInt8]] = []
        var state = 0  // 0 outside, 1 top section, 2 bottom section
        var eol: [UInt8] = [10]
        for line in LineDiff.lines(text) {
            let s = String(decoding: line, as: UTF8.self)
            let bare = s.hasSuffix("\r\n") ? String(s.dropLast(1)) : s.hasSuffix("\n") ? String(s.dropLast()) : s
            if state == 0 && bare == "<<<<<<< " + first {
                eol = Array(line.suffix(line.count - Array(bare.utf8).count))
                state = 1
            } else if state == 1 && bare == "=======" {
                state = 2
            } else if state == 2 && bare == ">>>>>>> " + second {
                out.append(Array(("<<<<<<< " + second).utf8) + eol)
                out += bottom
                out.append(Array("=======".utf8) + eol)
                out += top
                out.append(Array((">>>>>>> " + first).utf8) + eol)
                top = []
                bottom = []
                state = 0
            } else if state == 1 {
                top.append(line)
            } else if state == 2 {
                bottom.append(line)
            } else {
                out.append(line)
            }
        }
        return LineDiff.join(out)
    }

    @Test func mirrorHelperSwapsSections() {
        #expect(
            Self.mirror("x\n<<<<<<< B\n1\n=======\n2\n3\n>>>>>>> A\ny", first: "B", second: "A")
                == "x\n<<<<<<< A\n2\n3\n=======\n1\n>>>>>>> B\ny")
    }

    @Test func swappingTheSidesMirrorsTheMarkersOnly() {
        var conflicted = 0
        for seed in Self.seeds {
            let c = Self.randomCase(seed: seed)
            let ab = TextMerge.merge(base: c.base, ours: c.ours, theirs: c.theirs, oursLabel: "A", theirsLabel: "B")
            let ba = TextMerge.merge(base: c.base, ours: c.theirs, theirs: c.ours, oursLabel: "B", theirsLabel: "A")
            #expect(ab.hasConflicts == ba.hasConflicts, "seed \(seed)")
            #expect(
                Self.same(Self.mirror(ba.text, first: "B", second: "A"), ab.text),
                "seed \(seed): swapped merge is not the mirror image\n\(ab.text.debugDescription)\n\(ba.text.debugDescription)"
            )
            if ab.hasConflicts { conflicted += 1 } else { #expect(Self.same(ab.text, ba.text), "seed \(seed)") }
        }
        #expect(conflicted > 50 && conflicted < Self.seeds.count - 50, "the generator exercises both outcomes")
    }

    @Test func mergeIsDeterministic() {
        for seed in Self.seeds.prefix(100) {
            let c = Self.randomCase(seed: seed)
            let r1 = Self.merge(c.base, c.ours, c.theirs)
            let r2 = Self.merge(c.base, c.ours, c.theirs)
            #expect(Self.same(r1.text, r2.text), "seed \(seed)")
        }
    }

    /// With every line unique (base lines, and each side's insertions), text is traceable:
    /// whatever either side added is in the result exactly once, base lines both sides kept
    /// are in it exactly once, lines both sides deleted are gone, and a line one side deleted
    /// survives only inside a conflict (the other side's version).
    @Test func everyLineNotDeletedByTheOtherSideIsKept() {
        for seed in Self.seeds {
            var rng = SeededRandom(seed: seed &+ 1_000_000)
            let baseLines = (0..<Int.random(in: 0...12, using: &rng)).map { "base \($0)\n" }
            var counter = 0
            let oursLines = Self.edit(
                baseLines, &rng,
                fresh: { _ in
                    counter += 1
                    return "ours \(counter)\n"
                })
            let theirsLines = Self.edit(
                baseLines, &rng,
                fresh: { _ in
                    counter += 1
                    return "theirs \(counter)\n"
                })
            let r = Self.merge(baseLines.joined(), oursLines.joined(), theirsLines.joined())
            var count: [String: Int] = [:]
            for line in LineDiff.lines(r.text) { count[String(decoding: line, as: UTF8.self), default: 0] += 1 }
            let o = Set(oursLines)
            let t = Set(theirsLines)
            for line in oursLines + theirsLines where !baseLines.contains(line) {
                #expect(
                    count[line] == 1, "seed \(seed): added line \(line.debugDescription) lost or duplicated\n\(r.text)")
            }
            for line in baseLines {
                if o.contains(line) && t.contains(line) {
                    #expect(count[line] == 1, "seed \(seed): kept line \(line.debugDescription) lost\n\(r.text)")
                } else if !o.contains(line) && !t.contains(line) {
                    #expect(
                        count[line] == nil, "seed \(seed): deleted line \(line.debugDescription) came back\n\(r.text)")
                } else {
                    #expect((count[line] ?? 0) <= 1, "seed \(seed)")
                    if !r.hasConflicts {
                        #expect(
                            count[line] == nil, "seed \(seed): one side deleted \(line.debugDescription)\n\(r.text)")
                    }
                }
            }
        }
    }
}
