extension TextEditor {
    /// The selected text's range (between the anchor and the cursor, in order), or nil when
    /// nothing is selected. May be empty: a mark just set selects nothing yet.
    public var selection: Range<TextPosition>? {
        guard let anchor else { return nil }
        return min(anchor, cursor)..<max(anchor, cursor)
    }

    var nonEmptySelection: Range<TextPosition>? {
        guard let range = selection, !range.isEmpty else { return nil }
        return range
    }

    /// The selected text with LF line breaks (as the clipboard holds text), or nil when nothing
    /// is selected.
    public var selectedText: String? {
        guard let range = nonEmptySelection else { return nil }
        return Self.withLF(text(from: range.lowerBound, to: range.upperBound))
    }

    /// Sets the mark at the cursor (Ctrl-Space): from now on motion selects. With a mark or a
    /// selection already there, clears it instead.
    public mutating func toggleMark() {
        if anchor != nil {
            clearSelection()
        } else {
            anchor = cursor
            anchorIsMark = true
        }
    }

    public mutating func clearSelection() {
        anchor = nil
        anchorIsMark = false
    }

    /// Moves the cursor by `motion` with the selection following it (Shift and an arrow): the
    /// anchor stays where the selection started.
    public mutating func extendSelection(_ motion: Motion) {
        if anchor == nil {
            anchor = cursor
            anchorIsMark = false
        }
        moveKeepingAnchor(motion)
    }

    /// Deletes the selection and returns its text (LF line breaks), or nil when nothing is selected.
    public mutating func cutSelection() -> String? {
        guard let text = selectedText else { return nil }
        _ = deleteSelection()
        return text
    }

    /// Deletes the selection (one undo entry); false when nothing was selected. The selection ends either way.
    mutating func deleteSelection() -> Bool {
        guard let range = nonEmptySelection else {
            clearSelection()
            return false
        }
        replaceSelection(range, with: "")
        return true
    }

    /// Replaces the text in `range` with `typed` (CR and CRLF as LF, then as the text's own
    /// breaks) as one undo entry; the selection ends.
    mutating func replaceSelection(_ range: Range<TextPosition>, with typed: String) {
        clearSelection()
        var inserted = typed.utf8.contains(0x0D) ? typed.replacingCRLF() : typed
        if ending(forBreakOn: range.lowerBound.line) == "\r\n", inserted.utf8.contains(0x0A) {
            inserted = inserted.replacingLFWithCRLF()
        }
        let before = cursor
        let result = replace(from: range.lowerBound, to: range.upperBound, with: inserted)
        cursor = result.end
        record(
            EditRecord(
                kind: .other, start: range.lowerBound, removed: result.removed, inserted: inserted,
                cursorBefore: before, cursorAfter: cursor))
        run = nil
        afterEdit()
    }

    /// Ctrl-K: deletes from the cursor to the end of its line; at the end of a line (an empty
    /// one too), deletes the line break, joining the next line. Returns the deleted text (LF
    /// line breaks) and whether it continues the previous kill (Ctrl-K pressed again without
    /// moving), so the caller can collect consecutive kills as nano and emacs do.
    @discardableResult
    public mutating func killLine() -> (text: String, continues: Bool) {
        clearSelection()
        let lineEnd = TextPosition(line: cursor.line, column: lines[cursor.line].count)
        let end = cursor == lineEnd ? position(after: cursor) : lineEnd
        guard end != cursor else { return ("", false) }
        let removed = replace(from: cursor, to: end, with: "").removed
        let continues = run == .kill && undoStack.last?.start == cursor && undoStack.last?.inserted == ""
        if continues, var last = undoStack.last {
            last.removed += removed
            undoStack[undoStack.count - 1] = last
        } else {
            record(
                EditRecord(
                    kind: .kill, start: cursor, removed: removed, inserted: "", cursorBefore: cursor,
                    cursorAfter: cursor))
        }
        run = .kill
        afterEdit()
        return (Self.withLF(removed), continues)
    }

    /// Ctrl-W and Alt-Backspace: deletes from the start of the word before the cursor to the
    /// cursor (at a line's start, the line break before it). One undo entry.
    public mutating func deleteWordBackward() {
        clearSelection()
        let start = wordStart(before: cursor)
        guard start != cursor else { return }
        let before = cursor
        let removed = replace(from: start, to: cursor, with: "").removed
        cursor = start
        record(
            EditRecord(
                kind: .other, start: start, removed: removed, inserted: "", cursorBefore: before, cursorAfter: start))
        run = nil
        afterEdit()
    }

    /// Text with CRLF breaks as LF (for the clipboard: the text's own breaks come back when pasted).
    static func withLF(_ text: String) -> String {
        text.utf8.contains(0x0D) ? text.replacingCRLF() : text
    }
}
