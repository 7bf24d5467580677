import NotesCore
import TerminalUI

/// A note's body as the preview renders it (issue 26, "the same rendering in the terminal"):
/// one `PreviewLine` per body line, in order, read as Markdown block by block. Headings lose
/// their `#` (bold, underlined, a rule under levels 1 and 2), list items get a bullet and keep
/// their indentation, a task's box (☐ or ☑) stands for its bullet, fenced and indented code and tables are not
/// reflowed (table columns aligned), quotes get a bar, `---` a rule; inline syntax is
/// `MarkdownInline`'s. One body line is one rendered line, so the task cursor and the search
/// find their line by number. Lines before `renderFrom` are read (the block state needs them)
/// but not rendered, so a pane that starts deep in a long note costs only what it shows.
///
/// Every line is made terminal-safe (`TerminalSafeText`, ARCHITECTURE §7) before it is read.
struct MarkdownPreview {
    private let body: String
    private var lines: BodyLines
    /// Lines read ahead (a table's delimiter row is looked for on the next line).
    private var ahead: [Substring] = []
    /// A table's rendered rows, handed out one per call.
    private var queued: [PreviewLine] = []
    /// The number of the last body line read.
    private var number = 0
    /// The open code fence: its character and length.
    private var fence: (character: Character, count: Int)?
    private var inIndentedCode = false
    private var previousBlank = true
    private var inList = false
    private let inline: MarkdownInline
    private let theme: Theme
    private let ascii: Bool
    /// The most of a line that is read (what fits in the pane): a 1 MB line costs no more.
    private let maxCharacters: Int
    /// Lines before this one come back with their number only.
    var renderFrom: Int

    /// The most rows of one table that are aligned together; the next rows start another.
    static let maxTableRows = 500

    /// A reader of `body`, from its top or from `checkpoint` (`MarkdownIndex`) when that fits
    /// the body (an index made for other text is not used).
    init(
        _ body: String, theme: Theme, ascii: Bool, maxCharacters: Int, renderFrom: Int = 1,
        from checkpoint: Checkpoint? = nil
    ) {
        self.body = body
        lines = BodyLines(rest: body[...])
        if let checkpoint, checkpoint.offset <= body.utf8.count {
            let start = body.utf8.index(body.utf8.startIndex, offsetBy: checkpoint.offset)
            if start == body.startIndex || body.utf8[body.utf8.index(before: start)] == 0x0A {
                lines = BodyLines(rest: body[start...])
                number = checkpoint.line - 1
                fence = checkpoint.fence.map { ($0.character, $0.count) }
                inIndentedCode = checkpoint.inIndentedCode
                previousBlank = checkpoint.previousBlank
                inList = checkpoint.inList
            }
        }
        inline = MarkdownInline(theme: theme)
        self.theme = theme
        self.ascii = ascii
        self.maxCharacters = max(1, maxCharacters)
        self.renderFrom = renderFrom
    }

    /// The next body line, rendered (or just numbered, before `renderFrom`); nil at the end.
    mutating func next() -> PreviewLine? {
        if !queued.isEmpty { return queued.removeFirst() }
        guard let raw = readLine() else { return nil }
        let rendering = number >= renderFrom
        // A line before `renderFrom` is read as it is, for its block structure only (a tab is
        // indentation either way; only its start is looked at, and it is not cut, which would
        // cost a walk over its characters); one that shows is made safe first, and read from that.
        let line =
            rendering ? Substring(TerminalSafeText.sanitize(String(raw.prefix(maxCharacters)), mode: .block)) : raw
        var result = PreviewLine(source: number)
        let blank = line.allSatisfy { $0 == " " || $0 == "\t" }
        defer { previousBlank = blank }
        if let open = fence {
            let rest = line.drop { $0 == " " || $0 == "\t" }
            if rest.prefix(while: { $0 == open.character }).count >= open.count,
                rest.drop(while: { $0 == open.character }).allSatisfy({ $0 == " " })
            {
                fence = nil
            } else if rendering {
                result.prefix.add("  ", .plain)
                result.content.add(line, theme.code)
                result.wraps = false
            }
            return result
        }
        if blank { return result }
        let indent = Self.indentation(line)
        let rest = line.drop { $0 == " " || $0 == "\t" }
        if indent >= 4 && (inIndentedCode || (previousBlank && !inList)) {
            inIndentedCode = true
            if rendering {
                result.prefix.add("  ", .plain)
                result.content.add(line.dropFirst(4), theme.code)
                result.wraps = false
            }
            return result
        }
        inIndentedCode = false
        if let marker = rest.first, marker == "`" || marker == "~" {
            let run = rest.prefix { $0 == marker }.count
            if run >= 3 && !(marker == "`" && rest.dropFirst(run).contains("`")) {
                fence = (marker, run)
                // The fence's language stays, in the markup style.
                if rendering { result.content.add(MarkdownInline.stripped(rest.dropFirst(run)), theme.markup) }
                return result
            }
        }
        if rest.utf8.contains(0x7C), let delimiter = peekLine(), let alignments = Self.alignments(delimiter) {
            return table(first: rest, alignments: alignments)
        }
        if !rendering {
            inList = Self.listItem(rest) != nil || (inList && indent > 0)
            return result
        }
        render(rest, indent: indent, into: &result)
        return result
    }

    /// A line that is neither code nor a table, without its `indent` spaces (`rest`).
    private mutating func render(_ rest: Substring, indent: Int, into result: inout PreviewLine) {
        if let level = Self.headingLevel(rest) {
            let text = Self.headingText(rest.dropFirst(level))
            result.content = inline.spans(text, style: theme.heading(level))
            if level <= 2 { result.below = level == 1 ? "═" : "─" }
            inList = false
            return
        }
        if Self.isRule(rest) {
            result.fill = "─"
            inList = false
            return
        }
        if rest.first == ">" {
            var quoted = rest
            var depth = 0
            while quoted.first == ">" {
                depth += 1
                quoted = quoted.dropFirst()
                if quoted.first == " " { quoted = quoted.dropFirst() }
            }
            result.prefix.add(String(repeating: "│ ", count: depth), theme.markup)
            var inner = PreviewLine(source: result.source)
            render(quoted, indent: 0, into: &inner)
            result.prefix += inner.prefix
            result.content = inner.content
            result.box = inner.box.map { $0 + 1 }
            result.below = inner.below
            return
        }
        if let item = Self.listItem(rest) {
            inList = true
            result.prefix.add(String(repeating: " ", count: indent), .plain)
            // A task's box stands for its bullet, as on the published page.
            if let marker = item.marker {
                result.prefix.add(marker + " ", .plain)
            } else if item.task == nil {
                result.prefix.add("• ", theme.markup)
            }
            if let done = item.task {
                result.box = result.prefix.count
                result.prefix.append(PreviewSpan(text: Self.box(done: done, ascii: ascii), style: .plain))
                result.prefix.add(" ", .plain)
            }
            result.content = inline.spans(item.text)
            return
        }
        if indent > 0 && inList {
            // A list item's next paragraph or wrapped line: under the item's text.
            result.prefix.add(String(repeating: " ", count: indent), .plain)
        } else {
            inList = false
        }
        result.content = inline.spans(rest)
    }

    /// A table: `first` (its header row) and the rows after the delimiter row, columns aligned.
    private mutating func table(first: Substring, alignments: [Alignment]) -> PreviewLine {
        let header = number
        _ = readLine()
        var texts = [first]
        while texts.count < Self.maxTableRows, let line = peekLine(), line.utf8.contains(0x7C),
            !line.allSatisfy({ $0 == " " || $0 == "\t" })
        {
            _ = readLine()
            texts.append(line)
        }
        previousBlank = false
        inList = false
        let sourceOf = { (row: Int) in row == 0 ? header : header + row + 1 }
        // Rendered whole when any of its rows shows (the columns are aligned over all of them).
        guard number >= renderFrom else {
            queued = (0..<texts.count + 1).map { PreviewLine(source: header + $0) }
            return queued.removeFirst()
        }
        let rows = texts.map {
            Self.cells(Substring(TerminalSafeText.sanitize(String($0.prefix(maxCharacters)), mode: .block)))
        }
        let columns = rows.map(\.count).max() ?? 0
        let rendered = rows.enumerated().map { index, row in
            row.map { inline.spans(MarkdownInline.stripped($0), style: index == 0 ? Style().bold() : .plain) }
        }
        var widths = [Int](repeating: 0, count: columns)
        for row in rendered {
            for (column, cell) in row.enumerated() {
                widths[column] = max(widths[column], TextWidth.width(of: cell.map(\.text).joined()))
            }
        }
        func line(_ row: [[PreviewSpan]], source: Int) -> PreviewLine {
            var result = PreviewLine(source: source, wraps: false)
            for column in 0..<columns {
                if column > 0 { result.content.add(" │ ", theme.markup) }
                let cell = column < row.count ? row[column] : []
                let room = widths[column] - TextWidth.width(of: cell.map(\.text).joined())
                let alignment = column < alignments.count ? alignments[column] : .left
                let before = alignment == .right ? room : alignment == .center ? room / 2 : 0
                result.content.add(String(repeating: " ", count: before), .plain)
                for span in cell { result.content.add(span.text, span.style) }
                result.content.add(String(repeating: " ", count: room - before), .plain)
            }
            return result
        }
        var lines = [line(rendered[0], source: sourceOf(0))]
        var delimiter = PreviewLine(source: header + 1, wraps: false)
        delimiter.content.add(widths.map { String(repeating: "─", count: $0) }.joined(separator: "─┼─"), theme.markup)
        lines.append(delimiter)
        for (index, row) in rendered.enumerated().dropFirst() { lines.append(line(row, source: sourceOf(index))) }
        queued = Array(lines.dropFirst())
        return lines[0]
    }

    /// Where the reader stands, before line `number + 1`; nil in the middle of a table.
    var checkpoint: Checkpoint? {
        guard ahead.isEmpty, queued.isEmpty, let rest = lines.rest else { return nil }
        return Checkpoint(
            line: number + 1, offset: body.utf8.distance(from: body.utf8.startIndex, to: rest.startIndex),
            fence: fence.map { Checkpoint.Fence(character: $0.character, count: $0.count) },
            inIndentedCode: inIndentedCode, previousBlank: previousBlank, inList: inList)
    }

    /// The block state before a body line, and where that line starts: enough to read on
    /// from there instead of from the top.
    struct Checkpoint: Equatable, Sendable {
        struct Fence: Equatable, Sendable {
            var character: Character
            var count: Int
        }
        /// The line (from 1) read next.
        var line: Int
        /// Its UTF-8 offset in the body.
        var offset: Int
        var fence: Fence?
        var inIndentedCode: Bool
        var previousBlank: Bool
        var inList: Bool
    }

    private mutating func readLine() -> Substring? {
        let line = ahead.isEmpty ? lines.next() : ahead.removeFirst()
        if line != nil { number += 1 }
        return line
    }

    private mutating func peekLine() -> Substring? {
        if ahead.isEmpty, let line = lines.next() { ahead.append(line) }
        return ahead.first
    }
}

extension MarkdownPreview {
    /// A table column's alignment, from its delimiter cell (`:--`, `:-:`, `--:`).
    enum Alignment { case left, center, right }

    /// The columns of `line`'s leading spaces and tabs (a tab to the next multiple of 4, as
    /// `TerminalSafeText` draws it).
    static func indentation(_ line: Substring) -> Int {
        var columns = 0
        for character in line {
            switch character {
            case " ": columns += 1
            case "\t": columns += TerminalSafeText.tabWidth - columns % TerminalSafeText.tabWidth
            default: return columns
            }
        }
        return columns
    }

    /// `#` to `######` then a space (or nothing): the level.
    static func headingLevel(_ line: Substring) -> Int? {
        let level = line.prefix { $0 == "#" }.count
        guard (1...6).contains(level) else { return nil }
        let after = line.dropFirst(level)
        return after.isEmpty || after.first == " " ? level : nil
    }

    /// A heading's text without its closing `#`s.
    static func headingText(_ text: Substring) -> Substring {
        var text = text.drop { $0 == " " }
        while text.last == " " { text = text.dropLast() }
        let closing = text.reversed().prefix { $0 == "#" }.count
        if closing > 0, closing == text.count || text.dropLast(closing).last == " " {
            text = text.dropLast(closing)
            while text.last == " " { text = text.dropLast() }
        }
        return text
    }

    /// `---`, `***` or `___` (three or more, spaces between allowed).
    static func isRule(_ line: Substring) -> Bool {
        guard let first = line.first, first == "-" || first == "*" || first == "_" else { return false }
        return line.allSatisfy { $0 == first || $0 == " " } && line.count(where: { $0 == first }) >= 3
    }

    /// `- `, `* `, `+ ` or `1. ` / `1) `: the ordered marker (nil for a bullet), whether it is a
    /// task (`[ ]` open, `[x]` done) and its text.
    static func listItem(_ line: Substring) -> (marker: String?, task: Bool?, text: Substring)? {
        var marker: String?
        var text: Substring
        if let first = line.first, first == "-" || first == "*" || first == "+" {
            text = line.dropFirst()
        } else {
            let digits = line.prefix { $0.isASCII && $0.isNumber }
            guard (1...9).contains(digits.count), let close = line.dropFirst(digits.count).first,
                close == "." || close == ")"
            else { return nil }
            marker = String(line.prefix(digits.count + 1))
            text = line.dropFirst(digits.count + 1)
        }
        guard text.isEmpty || text.first == " " else { return nil }
        text = text.drop { $0 == " " }
        for (box, done) in [("[ ]", false), ("[x]", true), ("[X]", true)] where text.hasPrefix(box) {
            let after = text.dropFirst(3)
            if after.isEmpty || after.first == " " { return (marker, done, after.drop { $0 == " " }) }
        }
        return (marker, nil, text)
    }

    /// A task's box: ☐ or ☑, or `[ ]` and `[x]` on a terminal without UTF-8.
    static func box(done: Bool, ascii: Bool) -> String {
        ascii ? (done ? "[x]" : "[ ]") : (done ? "☑" : "☐")
    }

    /// A table row's cells: split at `|` (not escaped, not in code), the outer pipes dropped.
    static func cells(_ line: Substring) -> [Substring] {
        var cells: [Substring] = []
        var start = line.startIndex
        var inCode = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == "\\" {
                index = line.index(after: index)
                if index < line.endIndex { index = line.index(after: index) }
                continue
            }
            if character == "`" { inCode.toggle() }
            if character == "|" && !inCode {
                cells.append(line[start..<index])
                start = line.index(after: index)
            }
            index = line.index(after: index)
        }
        cells.append(line[start...])
        if cells.count > 1, cells[0].allSatisfy({ $0 == " " }) { cells.removeFirst() }
        if cells.count > 1, let last = cells.last, last.allSatisfy({ $0 == " " }) { cells.removeLast() }
        return cells
    }

    /// A delimiter row's alignments (`| --- | :-: |`), or nil when `line` is not one.
    static func alignments(_ line: Substring) -> [Alignment]? {
        guard line.contains("-"), line.contains("|") || line.contains(":") else { return nil }
        var result: [Alignment] = []
        for cell in cells(line) {
            let text = MarkdownInline.stripped(cell)
            guard !text.isEmpty, text.allSatisfy({ $0 == "-" || $0 == ":" }), text.contains("-"),
                !text.dropFirst().dropLast().contains(":")
            else { return nil }
            let left = text.first == ":"
            let right = text.last == ":"
            result.append(left && right ? .center : right ? .right : .left)
        }
        return result
    }
}
