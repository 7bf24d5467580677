import TerminalUI
import Testing

/// Checks the wide-character invariant: every wide cell is followed by a continuation and
/// every continuation follows a wide cell.
func expectConsistent(_ buffer: Buffer, sourceLocation: SourceLocation = #_sourceLocation) {
    for y in 0..<buffer.size.height {
        for x in 0..<buffer.size.width {
            let cell = buffer[x, y]
            if cell.isWide {
                #expect(
                    x + 1 < buffer.size.width && buffer[x + 1, y].isContinuation,
                    "wide cell at (\(x), \(y)) without continuation\n\(buffer)", sourceLocation: sourceLocation)
            }
            if cell.isContinuation {
                #expect(
                    x > 0 && buffer[x - 1, y].isWide,
                    "orphan continuation at (\(x), \(y))\n\(buffer)", sourceLocation: sourceLocation)
            }
        }
    }
}

@Suite struct BufferTests {
    @Test func linesBuildTheExpectedScreen() {
        let buffer = Buffer(lines: ["┌Notes─┐", "│a 漢  │"])
        #expect(buffer.size == Size(width: 8, height: 2))
        #expect(buffer.lines == ["┌Notes─┐", "│a 漢  │"])
        #expect(buffer[3, 1].grapheme == "漢")
        #expect(buffer[4, 1].isContinuation)
        expectConsistent(buffer)
    }

    @Test func writeAdvancesByDisplayWidth() {
        var buffer = Buffer(size: Size(width: 10, height: 2))
        let end = buffer.write("a漢b😀c", at: Point(x: 1, y: 1))
        #expect(end == 8)
        #expect(buffer == Buffer(lines: ["          ", " a漢b😀c  "]))
        expectConsistent(buffer)
    }

    @Test func writeCarriesTheStyle() {
        var buffer = Buffer(size: Size(width: 4, height: 1))
        let bold = Style.plain.bold().foreground(.red)
        buffer.write("ab", at: Point(x: 1, y: 0), style: bold)
        var expected = Buffer(lines: ["    "])
        expected.write("ab", at: Point(x: 1, y: 0), style: bold)
        #expect(buffer == expected)
        #expect(buffer != Buffer(lines: [" ab "]))  // same text, other style
        #expect(buffer[1, 0].style == bold)
        #expect(buffer[0, 0].style == .plain)
    }

    @Test func writeNeverPassesTheBufferOrClipRect() {
        var buffer = Buffer(lines: ["xxxxxxxx", "xxxxxxxx"])
        buffer.write("hello world", at: Point(x: 5, y: 0))
        buffer.write("hello world", at: Point(x: 2, y: 1), clipTo: Rect(x: 1, y: 1, width: 4, height: 1))
        buffer.write("nothing", at: Point(x: 0, y: 5))
        buffer.write("nothing", at: Point(x: 0, y: 0), clipTo: Rect(x: 0, y: 1, width: 8, height: 1))
        #expect(buffer == Buffer(lines: ["xxxxxhel", "xxhelxxx"]))
    }

    @Test func wideCharacterStraddlingTheRightEdgeBecomesASpace() {
        var buffer = Buffer(lines: ["xxxxxx", "xxxxxx"])
        let end = buffer.write("abc漢", at: Point(x: 1, y: 0), clipTo: Rect(x: 0, y: 0, width: 5, height: 2))
        #expect(end == 5)
        buffer.write("abcde漢", at: Point(x: 0, y: 1))
        #expect(buffer == Buffer(lines: ["xabc x", "abcde "]))
        expectConsistent(buffer)
    }

    @Test func wideCharacterCutByTheLeftEdgeLeavesASpace() {
        var buffer = Buffer(lines: ["xxxxx"])
        buffer.write("漢ab", at: Point(x: 0, y: 0), clipTo: Rect(x: 1, y: 0, width: 4, height: 1))
        #expect(buffer == Buffer(lines: ["x abx"]))
        buffer.write("字z", at: Point(x: -1, y: 0))
        #expect(buffer == Buffer(lines: [" zabx"]))
        expectConsistent(buffer)
    }

    @Test func overwritingTheRightHalfOfAWideCharacterBlanksTheLeftHalf() {
        var buffer = Buffer(lines: ["漢字かな"])
        buffer.write("a", at: Point(x: 1, y: 0))
        #expect(buffer == Buffer(lines: [" a字かな"]))
        expectConsistent(buffer)
    }

    @Test func overwritingTheLeftHalfOfAWideCharacterBlanksTheRightHalf() {
        var buffer = Buffer(lines: ["漢字かな"])
        buffer.write("b", at: Point(x: 2, y: 0))
        #expect(buffer == Buffer(lines: ["漢b かな"]))
        expectConsistent(buffer)
    }

    @Test func wideOverShiftedWideBlanksTheCutHalves() {
        var buffer = Buffer(lines: ["漢字かな"])
        buffer.write("日本", at: Point(x: 1, y: 0))
        #expect(buffer == Buffer(lines: [" 日本 な"]))
        expectConsistent(buffer)
    }

    @Test func overwrittenHalvesKeepTheirStyle() {
        let red = Style.plain.foreground(.red)
        var buffer = Buffer(size: Size(width: 3, height: 1))
        buffer.write("漢", at: .zero, style: red)
        buffer.write("a", at: Point(x: 1, y: 0))
        #expect(buffer[0, 0] == Cell(" ", style: red))
        #expect(buffer[1, 0] == Cell("a"))
    }

    @Test func controlAndZeroWidthClustersAreSkipped() {
        var buffer = Buffer(size: Size(width: 6, height: 1))
        buffer.write("a\u{1B}b\r\n\u{200B}c\u{7}", at: .zero)
        #expect(buffer == Buffer(lines: ["abc   "]))
    }

    @Test func fillCoversTheRectOnly() {
        var buffer = Buffer(lines: ["漢字かな", "abcdefgh", "abcdefgh"])
        buffer.fill(Rect(x: 1, y: 0, width: 3, height: 2), with: "·")
        #expect(buffer == Buffer(lines: [" ···かな", "a···efgh", "abcdefgh"]))
        buffer.fill(Rect(x: 0, y: 2, width: 5, height: 1), with: "漢")
        #expect(buffer == Buffer(lines: [" ···かな", "a···efgh", "漢漢 fgh"]))
        expectConsistent(buffer)
    }

    @Test func setStyleKeepsTextAndWidePairsTogether() {
        var buffer = Buffer(lines: ["a漢b"])
        let reverse = Style.plain.reverse()
        buffer.setStyle(reverse, in: Rect(x: 2, y: 0, width: 1, height: 1))
        #expect(buffer.lines == ["a漢b"])
        #expect(buffer[1, 0].style == reverse)
        #expect(buffer[2, 0].style == reverse)
        #expect(buffer[0, 0].style == .plain)
        #expect(buffer[3, 0].style == .plain)
    }

    @Test func descriptionShowsRowsAndStyles() {
        var buffer = Buffer(lines: ["ab", "漢"])
        buffer.setStyle(Style.plain.bold(), in: Rect(x: 1, y: 0, width: 1, height: 1))
        #expect(buffer.description == "Buffer 2x2\n\"ab\"\n\"漢\"\nstyles:\n  row 0 x 1..<2: bold\n")
    }
}
