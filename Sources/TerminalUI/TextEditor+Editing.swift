/// One undoable change: `removed` was replaced by `inserted` at `start`.
struct EditRecord: Equatable, Sendable {
    /// What made the change; consecutive typing (or deleting) extends one record, so one undo
    /// takes back a whole run of keystrokes.
    enum Kind: Equatable, Sendable {
        case typing, backspace, delete, kill, other
    }

    var kind: Kind
    var start: TextPosition
    var removed: String
    var inserted: String
    var cursorBefore: TextPosition
    var cursorAfter: TextPosition
}

extension TextEditor {
    /// Undo entries kept; older ones are forgotten.
    static var undoLimit: Int { 500 }

    /// Types `text` at the cursor (a key, Enter's "\n", or a whole paste in one step and one
    /// undo entry), replacing the selection if there is one. CRLF and lone CR in pasted text
    /// become line breaks like the one after the cursor's line (see `ending(forBreakOn:)`).
    public mutating func insert(_ text: String) {
        guard !text.isEmpty else { return }
        if let range = nonEmptySelection {
            replaceSelection(range, with: text)
            return
        }
        clearSelection()
        var normalized = text.utf8.contains(0x0D) ? text.replacingCRLF() : text
        // One character (cheap check first: a paste can be megabytes).
        let isTyping = normalized.utf8.count <= 64 && normalized.count == 1 && normalized != "\n"
        if !isTyping, ending(forBreakOn: cursor.line) == "\r\n", normalized.utf8.contains(0x0A) {
            normalized = normalized.replacingLFWithCRLF()
        }
        let before = cursor
        cursor = replace(from: cursor, to: cursor, with: normalized).end
        if isTyping, run == .typing, var last = undoStack.last, last.cursorAfter == before {
            last.inserted += normalized
            last.cursorAfter = cursor
            undoStack[undoStack.count - 1] = last
        } else {
            record(
                EditRecord(
                    kind: isTyping ? .typing : .other, start: before, removed: "", inserted: normalized,
                    cursorBefore: before, cursorAfter: cursor))
        }
        run = isTyping ? .typing : nil
        afterEdit()
    }

    /// Deletes the character before the cursor, joining lines at the start of a line (or the
    /// selection, when there is one).
    public mutating func backspace() {
        if deleteSelection() { return }
        guard cursor != .zero else { return }
        let before = cursor
        let start = position(before: cursor)
        let removed = replace(from: start, to: cursor, with: "").removed
        cursor = start
        if run == .backspace, var last = undoStack.last, last.start == before, last.inserted.isEmpty {
            last.removed = removed + last.removed
            last.start = start
            last.cursorAfter = start
            undoStack[undoStack.count - 1] = last
        } else {
            record(
                EditRecord(
                    kind: .backspace, start: start, removed: removed, inserted: "", cursorBefore: before,
                    cursorAfter: start))
        }
        run = .backspace
        afterEdit()
    }

    /// Deletes the character under the cursor, joining the next line at the end of a line (or
    /// the selection, when there is one).
    public mutating func deleteForward() {
        if deleteSelection() { return }
        let end = position(after: cursor)
        guard end != cursor else { return }
        let removed = replace(from: cursor, to: end, with: "").removed
        if run == .delete, var last = undoStack.last, last.start == cursor, last.inserted.isEmpty {
            last.removed += removed
            undoStack[undoStack.count - 1] = last
        } else {
            record(
                EditRecord(
                    kind: .delete, start: cursor, removed: removed, inserted: "", cursorBefore: cursor,
                    cursorAfter: cursor))
        }
        run = .delete
        afterEdit()
    }

    /// Takes back the last change (a typing run counts as one); returns false when there is none.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let last = undoStack.popLast() else { return false }
        clearSelection()
        replace(from: last.start, to: last.start.advanced(over: last.inserted), with: last.removed)
        cursor = clamped(last.cursorBefore)
        redoStack.append(last)
        run = nil
        afterEdit()
        return true
    }

    /// Does again what `undo` took back; returns false when there is nothing to redo.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let last = redoStack.popLast() else { return false }
        clearSelection()
        replace(from: last.start, to: last.start.advanced(over: last.removed), with: last.inserted)
        cursor = clamped(last.cursorAfter)
        undoStack.append(last)
        run = nil
        afterEdit()
        return true
    }

    mutating func record(_ edit: EditRecord) {
        undoStack.append(edit)
        if undoStack.count > Self.undoLimit { undoStack.removeFirst(undoStack.count - Self.undoLimit) }
        redoStack = []
    }

    mutating func afterEdit() {
        goalX = nil
        scrollToCursor()
    }
}

extension String {
    /// CRLF and lone CR turned into LF, as text typed into the editor has them (on the UTF-8
    /// bytes: CR and LF are never part of a longer sequence).
    func replacingCRLF() -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var afterCR = false
        for byte in utf8 {
            if byte == 0x0D {
                bytes.append(0x0A)
                afterCR = true
                continue
            }
            if !(byte == 0x0A && afterCR) { bytes.append(byte) }
            afterCR = false
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every LF as CRLF (the text has no CR).
    func replacingLFWithCRLF() -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + utf8.count / 16)
        for byte in utf8 {
            if byte == 0x0A { bytes.append(0x0D) }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
