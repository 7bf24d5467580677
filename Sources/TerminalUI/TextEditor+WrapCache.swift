/// The soft wrap of the cursor's line, kept between keystrokes.
///
/// Lines other than the cursor's are short-lived on screen and wrapped when drawn; the
/// cursor's line is wrapped on every key, and one line can be megabytes long (a pasted log, a
/// minified file). So its row starts are kept, and a one-character edit re-wraps only from
/// the row before the edit until the rows fall back in step with the old ones.
struct WrapCache: Equatable, Sendable {
    var line = -1
    var width = 0
    var starts: [Int] = []
    /// The UTF-8 offset of each row start, to reach a row of a long line without a walk.
    var offsets: [Int] = []

    /// Derived data: two editors with the same text and cursor are equal whatever they cached.
    static func == (_: WrapCache, _: WrapCache) -> Bool { true }
}

extension TextEditor {
    /// Where the cursor's line wraps: the column each of its visual rows starts at.
    public var cursorLineRowStarts: [Int] { rowStarts(ofLine: cursor.line) }

    /// Row starts of line `line` at the viewport's width (see `SoftWrap`), from the cache for
    /// the cursor's line.
    func rowStarts(ofLine line: Int) -> [Int] {
        if wrapCache.line == line && wrapCache.width == viewport.width { return wrapCache.starts }
        return SoftWrap.rowStarts(of: lines[line], width: viewport.width, measure: measure)
    }

    /// Makes the cache hold the cursor's line (wrapping it whole when the cursor moved to
    /// another line or the width changed).
    mutating func refreshWrapCache() {
        guard wrapCache.line != cursor.line || wrapCache.width != viewport.width else { return }
        let wrapped = SoftWrap.rowStarts(
            of: lines[cursor.line], from: 0, utf8Offset: 0, width: viewport.width, measure: measure)
        wrapCache = WrapCache(
            line: cursor.line, width: viewport.width, starts: wrapped.starts, offsets: wrapped.offsets)
    }

    /// The index of character `column` of line `line` (the line's end when it is shorter) and
    /// the column reached: from the nearest kept row start when the line is the cursor's, so a
    /// long line costs a row's walk, not the line's.
    func index(ofColumn column: Int, inLine line: Int) -> (index: String.Index, column: Int) {
        let text = lines[line]
        var index = text.startIndex
        var reached = 0
        if wrapCache.line == line, let row = wrapCache.starts.lastIndex(where: { $0 <= column }) {
            index = text.utf8.index(text.startIndex, offsetBy: wrapCache.offsets[row])
            reached = wrapCache.starts[row]
        }
        while reached < column && index < text.endIndex {
            text.formIndex(after: &index)
            reached += 1
        }
        return (index, reached)
    }

    /// Updates the cache after line `line` had `removedCount` characters (`byteDelta` bytes
    /// fewer or more) at `column` replaced by text ending at `newEnd`: incrementally for a
    /// one-character edit that joined no graphemes across its edges (`simple`), else by
    /// forgetting the line (it is wrapped again when needed).
    mutating func updateWrapCache(
        line: Int, column: Int, removedCount: Int, newEnd: Int, byteDelta: Int, simple: Bool
    ) {
        guard wrapCache.line == line, wrapCache.width == viewport.width else {
            if wrapCache.line >= line { wrapCache.line = -1 }
            return
        }
        let text = lines[line]
        let inserted = newEnd - column
        guard simple, removedCount <= 1, inserted <= 1, removedCount + inserted > 0 else {
            wrapCache.line = -1
            return
        }
        let old = wrapCache.starts
        let oldOffsets = wrapCache.offsets
        let delta = inserted - removedCount
        let oldEnd = column + removedCount
        // Resume two rows before the one holding the edit: a row's end is decided by the first
        // character that does not fit, which can sit as far as the start of the row after
        // next (a word moved down and at once broken), so rows from there on may change.
        let row = max(0, (old.lastIndex { $0 <= column } ?? 0) - 2)
        let restart = old[row]
        let from = text.utf8.index(text.startIndex, offsetBy: oldOffsets[row])
        let wrapped = SoftWrap.rowStarts(
            of: text[from...], from: restart, utf8Offset: oldOffsets[row], width: viewport.width, measure: measure
        ) { start in start > newEnd && Self.contains(old, start - delta, after: oldEnd) }
        var starts = Array(old[..<row]) + wrapped.starts
        var offsets = Array(oldOffsets[..<row]) + wrapped.offsets
        if wrapped.stopped, let last = wrapped.starts.last, let j = Self.index(of: last - delta, in: old) {
            starts += old[(j + 1)...].map { $0 + delta }
            offsets += oldOffsets[(j + 1)...].map { $0 + byteDelta }
        }
        wrapCache.starts = starts
        wrapCache.offsets = offsets
    }

    /// True when text replacing `lower..<upper` of `line` could join a neighbouring character
    /// into one grapheme (a combining mark, ZWJ, variation selector, flag or skin-tone half, a
    /// Hangul jamo): then column counts around the edit are not simple sums.
    static func mayJoin(_ text: String, replacing range: Range<String.Index>, in line: String) -> Bool {
        let scalars = line.unicodeScalars
        if text.unicodeScalars.contains(where: extendsGrapheme) { return true }
        if range.lowerBound > scalars.startIndex, extendsGrapheme(scalars[scalars.index(before: range.lowerBound)]) {
            return true
        }
        if range.upperBound < scalars.endIndex, extendsGrapheme(scalars[range.upperBound]) { return true }
        return line[range].unicodeScalars.contains(where: extendsGrapheme)
    }

    private static func extendsGrapheme(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0D, 0x200D, 0xFE00...0xFE0F, 0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F: return true
        case 0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF: return true
        default:
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .format: return true
            default: return false
            }
        }
    }

    /// Binary search in sorted row starts.
    private static func index(of value: Int, in starts: [Int]) -> Int? {
        var low = 0
        var high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low < starts.count && starts[low] == value ? low : nil
    }

    private static func contains(_ starts: [Int], _ value: Int, after bound: Int) -> Bool {
        value > bound && index(of: value, in: starts) != nil
    }
}
