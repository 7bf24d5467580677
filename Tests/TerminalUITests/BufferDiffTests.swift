import NotesTestSupport
import TerminalUI
import Testing

@Suite struct BufferDiffTests {
    @Test func equalBuffersNeedNoPainting() {
        let buffer = Buffer(lines: ["abc", "漢字"])
        #expect(BufferDiff(from: buffer, to: buffer).isEmpty)
    }

    @Test func oneChangedCellIsOneRunOfOneCell() {
        let diff = BufferDiff(from: Buffer(lines: ["abcd", "efgh"]), to: Buffer(lines: ["abcd", "eXgh"]))
        #expect(diff.runs == [BufferDiff.Run(origin: Point(x: 1, y: 1), cells: [Cell("X")])])
    }

    @Test func separateChangesAreSeparateRuns() {
        let diff = BufferDiff(from: Buffer(lines: ["abcdefgh"]), to: Buffer(lines: ["aXYdefZh"]))
        #expect(diff.runs.map(\.origin) == [Point(x: 1, y: 0), Point(x: 6, y: 0)])
        #expect(diff.runs.map(\.text) == ["XY", "Z"])
    }

    @Test func aStyleChangeIsAChange() {
        var new = Buffer(lines: ["abc"])
        new.setStyle(Style.plain.bold(), in: Rect(x: 2, y: 0, width: 1, height: 1))
        let diff = BufferDiff(from: Buffer(lines: ["abc"]), to: new)
        #expect(diff.runs == [BufferDiff.Run(origin: Point(x: 2, y: 0), cells: [Cell("c", style: Style.plain.bold())])])
    }

    @Test func aWideCharacterIsPaintedWhole() {
        let diff = BufferDiff(from: Buffer(lines: ["abcd"]), to: Buffer(lines: ["a漢d"]))
        #expect(diff.runs.count == 1)
        #expect(diff.runs[0].origin == Point(x: 1, y: 0))
        #expect(diff.runs[0].cells.count == 2)
        #expect(diff.runs[0].text == "漢")
    }

    @Test func aWideCharacterReplacedByAnotherIsPaintedFromItsLeftColumn() {
        let diff = BufferDiff(from: Buffer(lines: ["a漢b"]), to: Buffer(lines: ["a字b"]))
        #expect(diff.runs.map(\.origin) == [Point(x: 1, y: 0)])
        #expect(diff.runs.map(\.text) == ["字"])
        #expect(diff.runs[0].cells.count == 2)
    }

    @Test func aWideCharacterReplacedByNarrowOnesRepaintsBothColumns() {
        let diff = BufferDiff(from: Buffer(lines: ["漢xy"]), to: Buffer(lines: ["abxy"]))
        #expect(diff.runs == [BufferDiff.Run(origin: .zero, cells: [Cell("a"), Cell("b")])])
    }

    @Test func aNewSizeRepaintsEveryRow() {
        let diff = BufferDiff(from: Buffer(lines: ["ab"]), to: Buffer(lines: ["ab ", "cd "]))
        #expect(diff.runs.map(\.text) == ["ab ", "cd "])
        #expect(diff.runs.map(\.origin) == [Point(x: 0, y: 0), Point(x: 0, y: 1)])
    }

    @Test(arguments: [1, 2, 3, 42, 1234, 99_999])
    func applyingTheRunsToTheOldScreenGivesTheNewOne(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let pieces = ["a", "b", "漢", "字", "😀", " ", "é", "🇩🇪", "x"]
        let styles = [Style.plain, Style.plain.bold(), Style.plain.foreground(.red)]
        func scribble(_ buffer: inout Buffer) {
            for _ in 0..<random.below(12) {
                let text = (0..<random.below(5)).map { _ in pieces[random.below(pieces.count)] }.joined()
                let point = Point(x: random.below(12) - 2, y: random.below(4))
                buffer.write(text, at: point, style: styles[random.below(styles.count)])
            }
        }
        var old = Buffer(size: Size(width: 9, height: 4))
        scribble(&old)
        for _ in 0..<20 {
            var new = old
            scribble(&new)
            let diff = BufferDiff(from: old, to: new)
            var screen = old
            diff.apply(to: &screen)
            #expect(screen == new, "seed \(seed)")
            for run in diff.runs {
                #expect(!run.cells[0].isContinuation, "seed \(seed): run starts on a continuation")
                #expect(!run.cells.last!.isWide, "seed \(seed): run ends inside a wide character")
            }
            old = new
        }
    }
}
