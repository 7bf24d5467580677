import TerminalUI

/// Where each part of the screen goes for a terminal size; `update` and `view` share it.
///
/// From 80 columns the editor pane sits beside the list; narrower, it takes the lower half
/// of the rows above the status bar. Works from 60x15 up; smaller sizes draw what fits.
struct Layout: Equatable {
    static let sideBySideMinWidth = 80

    var search: Rect
    var list: Rect
    /// The separator between list and editor (a column, or a row when stacked).
    var separator: Rect
    /// The editor pane (it shows a preview of the selected row while no note is open).
    var preview: Rect
    var status: Rect
    /// Everything between the search field and the status bar (the resolver and history use it).
    var middle: Rect

    init(_ size: Size) {
        let width = max(0, size.width)
        let height = max(0, size.height)
        search = Rect(x: 0, y: 0, width: width, height: min(1, height))
        status = Rect(x: 0, y: max(0, height - 1), width: width, height: height >= 2 ? 1 : 0)
        middle = Rect(x: 0, y: 1, width: width, height: max(0, height - 2))
        if width >= Layout.sideBySideMinWidth {
            let listWidth = width * 2 / 5
            list = Rect(x: 0, y: middle.y, width: listWidth, height: middle.height)
            separator = Rect(x: listWidth, y: middle.y, width: 1, height: middle.height)
            preview = Rect(x: listWidth + 1, y: middle.y, width: width - listWidth - 1, height: middle.height)
        } else {
            let previewHeight = middle.height / 2
            let listHeight = middle.height - previewHeight
            list = Rect(x: 0, y: middle.y, width: width, height: listHeight)
            separator = Rect(x: 0, y: middle.y + listHeight, width: width, height: min(1, previewHeight))
            preview = Rect(x: 0, y: separator.maxY, width: width, height: max(0, previewHeight - 1))
        }
    }

    /// Where the editor's text goes: the pane less a one-column left margin.
    var editorText: Rect {
        Rect(x: preview.x + 1, y: preview.y, width: max(1, preview.width - 1), height: max(1, preview.height))
    }
}

/// One line of the list pane: a section header or the row at an index.
enum ListLine: Equatable {
    case header(String)
    case row(Int)
}

extension AppState {
    /// Lines the FAVORITES section takes (its header and rows; none when empty).
    private var favoriteLines: Int { favoriteCount == 0 ? 0 : favoriteCount + 1 }

    /// All lines of the list pane: FAVORITES and its rows, then NOTES and its rows.
    var listLineCount: Int {
        let others = rowCount - favoriteCount
        return favoriteLines + (others == 0 ? 0 : others + 1)
    }

    /// What list line `line` shows; computed, so 100k rows cost nothing.
    func listLine(_ line: Int) -> ListLine? {
        guard line >= 0, line < listLineCount else { return nil }
        if favoriteCount > 0 {
            if line == 0 { return .header("FAVORITES") }
            if line <= favoriteCount { return .row(line - 1) }
        }
        let notesHeader = favoriteLines
        return line == notesHeader ? .header("NOTES") : .row(favoriteCount + line - notesHeader - 1)
    }

    /// The list line showing row `index`.
    func listLine(ofRow index: Int) -> Int {
        index < favoriteCount ? index + 1 : favoriteLines + 1 + (index - favoriteCount)
    }

    /// The first row on or after list line `line` (skipping a header).
    func firstRow(onOrAfterLine line: Int) -> Int {
        switch listLine(line) {
        case .row(let index): index
        case .header: listLine(line + 1).flatMap { if case .row(let i) = $0 { i } else { nil } } ?? 0
        case nil: 0
        }
    }
}
