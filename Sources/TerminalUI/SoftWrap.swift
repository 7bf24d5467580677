/// Soft wrap of one line of editor text into visual rows.
///
/// The same greedy rules as `WrappedText`: a row breaks after a run of spaces when the next
/// word does not fit, and inside a word (between grapheme clusters) only when the word alone
/// is wider than a row; spaces past the edge hang at the end of their row. A character never
/// straddles the edge, so a wide character that does not fit starts the next row. Widths come
/// from a `GlyphMeasure`. One more, empty row follows a last row that is exactly full, so the
/// cursor at the end of the line has a cell to sit on. A TAB reaches the measure's next tab
/// stop, counted from the start of its row.
public enum SoftWrap {
    /// The column (character offset) where each visual row of `line` starts; the first is 0.
    public static func rowStarts(of line: some StringProtocol, width: Int, measure: some GlyphMeasure) -> [Int] {
        rowStarts(of: line, from: 0, utf8Offset: 0, width: width, measure: measure).starts
    }

    /// Row starts of `text`, the part of a line from column `offset` (itself a row start, at
    /// byte `utf8Offset`), as columns of the whole line, with the UTF-8 offset of each (so a
    /// row of a long line is reached without walking its characters). Stops early, `stopped` true, right after a row start for
    /// which `stop` says yes: the editor re-wraps from just before an edit until the rows fall
    /// back in step with the old ones, so a keystroke in a long line costs a row or two.
    ///
    /// Every row starts in the same state (no width used, no break opportunity before it),
    /// which is what makes any row start a safe place to resume from.
    static func rowStarts(
        of text: some StringProtocol, from offset: Int, utf8Offset: Int, width: Int, measure: some GlyphMeasure,
        stop: (Int) -> Bool = { _ in false }
    ) -> (starts: [Int], offsets: [Int], stopped: Bool) {
        let width = max(1, width)
        var starts = [offset]
        var offsets = [utf8Offset]
        // UTF-8 offsets of the characters of the current row (to find a moved word's start).
        var rowOffsets: [Int] = []
        var byte = utf8Offset
        var rowStart = offset
        var x = 0
        var index = offset
        var rowWidths: [Int] = []
        var breakAfter = -1
        var hanging = false
        for character in text {
            let w = measure.columns(of: character, at: x)
            defer {
                index += 1
                byte += character.utf8.count
            }
            // A TAB breaks and hangs like a space (so a word moved down never holds one, and
            // widths of moved characters do not depend on where they were).
            if character == " " || character == "\t" {
                if hanging || x + w > width {
                    hanging = true
                    rowWidths.append(0)
                    rowOffsets.append(byte)
                    breakAfter = index + 1
                    continue
                }
                x += w
                rowWidths.append(w)
                rowOffsets.append(byte)
                breakAfter = index + 1
                continue
            }
            if hanging {
                starts.append(index)
                offsets.append(byte)
                if stop(index) { return (starts, offsets, true) }
                rowStart = index
                x = 0
                rowWidths = []
                rowOffsets = []
                breakAfter = -1
                hanging = false
            } else if x + w > width && index > rowStart {
                if breakAfter > rowStart {
                    let moved = Array(rowWidths[(breakAfter - rowStart)...])
                    let movedOffsets = Array(rowOffsets[(breakAfter - rowStart)...])
                    starts.append(breakAfter)
                    offsets.append(movedOffsets.first ?? byte)
                    if stop(breakAfter) { return (starts, offsets, true) }
                    rowStart = breakAfter
                    rowWidths = moved
                    rowOffsets = movedOffsets
                    x = moved.reduce(0, +)
                    breakAfter = -1
                }
                if x + w > width && index > rowStart {
                    starts.append(index)
                    offsets.append(byte)
                    if stop(index) { return (starts, offsets, true) }
                    rowStart = index
                    rowWidths = []
                    rowOffsets = []
                    x = 0
                    breakAfter = -1
                }
            }
            x += w
            rowWidths.append(w)
            rowOffsets.append(byte)
        }
        if index > rowStart && x >= width && !hanging {
            starts.append(index)
            offsets.append(byte)
        }
        return (starts, offsets, false)
    }
}
