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
        wrapCache = WrapCache(
            line: cursor.line, width: viewport.width,
            starts: SoftWrap.rowStarts(of: lines[cursor.line], width: viewport.width, measure: measure))
    }

    /// Updates the cache after line `line` had `removed` characters at `column` replaced by
    /// text ending at `newEnd`: incrementally for a one-character edit that cannot join
    /// graphemes across its edges, else by forgetting the line (it is wrapped again when needed).
    mutating func updateWrapCache(line: Int, column: Int, removedCount: Int, newEnd: Int) {
        guard wrapCache.line == line, wrapCache.width == viewport.width else {
            if wrapCache.line >= line { wrapCache.line = -1 }
            return
        }
        let text = lines[line]
        let inserted = newEnd - column
        guard removedCount <= 1, inserted <= 1, removedCount + inserted > 0,
            !joinsNeighbours(text, column: column, newEnd: newEnd)
        else {
            wrapCache.line = -1
            return
        }
        let old = wrapCache.starts
        let delta = inserted - removedCount
        let oldEnd = column + removedCount
        // Resume two rows before the one holding the edit: a row's end is decided by the first
        // character that does not fit, which can sit as far as the start of the row after
        // next (a word moved down and at once broken), so rows from there on may change.
        let row = max(0, (old.lastIndex { $0 <= column } ?? 0) - 2)
        let restart = old[row]
        let from = text.index(text.startIndex, offsetBy: restart)
        let wrapped = SoftWrap.rowStarts(of: text[from...], from: restart, width: viewport.width, measure: measure) {
            start in start > newEnd && Self.contains(old, start - delta, after: oldEnd)
        }
        var starts = Array(old[..<row]) + wrapped.starts
        if wrapped.stopped, let last = wrapped.starts.last, let j = Self.index(of: last - delta, in: old) {
            starts += old[(j + 1)...].map { $0 + delta }
        }
        wrapCache.starts = starts
    }

    /// True when the characters either side of the edited range could have merged with it
    /// into one grapheme (a combining mark, ZWJ, variation selector, flag or skin-tone half):
    /// then column counts around the edit are not simple shifts.
    private func joinsNeighbours(_ text: String, column: Int, newEnd: Int) -> Bool {
        let start = text.index(text.startIndex, offsetBy: column)
        let slice = text[start...].prefix(newEnd - column + 1)
        return slice.unicodeScalars.contains(where: Self.extendsGrapheme)
            || (column > 0 && text[text.index(before: start)].unicodeScalars.contains(where: Self.extendsGrapheme))
    }

    private static func extendsGrapheme(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200D, 0xFE00...0xFE0F, 0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F: return true
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
