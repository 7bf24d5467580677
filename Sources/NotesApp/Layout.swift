import TerminalUI

/// Where each part of the screen goes for a terminal size; `update` and `view` share it.
///
/// From 80 columns the preview pane sits beside the list; narrower, it takes the last rows
/// above the status bar. Works from 60x15 up; smaller sizes draw what fits.
struct Layout: Equatable {
    static let sideBySideMinWidth = 80
    static let stackedPreviewHeight = 3

    var search: Rect
    var list: Rect
    /// The separator between list and preview (a column, or a row when stacked).
    var separator: Rect
    var preview: Rect
    var status: Rect

    init(_ size: Size) {
        let width = max(0, size.width)
        let height = max(0, size.height)
        search = Rect(x: 0, y: 0, width: width, height: min(1, height))
        status = Rect(x: 0, y: max(0, height - 1), width: width, height: height >= 2 ? 1 : 0)
        let middle = Rect(x: 0, y: 1, width: width, height: max(0, height - 2))
        if width >= Layout.sideBySideMinWidth {
            let listWidth = width / 2
            list = Rect(x: 0, y: middle.y, width: listWidth, height: middle.height)
            separator = Rect(x: listWidth, y: middle.y, width: 1, height: middle.height)
            preview = Rect(x: listWidth + 1, y: middle.y, width: width - listWidth - 1, height: middle.height)
        } else {
            let previewHeight = min(Layout.stackedPreviewHeight, middle.height)
            let listHeight = middle.height - previewHeight
            list = Rect(x: 0, y: middle.y, width: width, height: listHeight)
            separator = Rect(x: 0, y: middle.y + listHeight, width: width, height: min(1, previewHeight))
            preview = Rect(x: 0, y: separator.maxY, width: width, height: max(0, previewHeight - 1))
        }
    }
}

/// One line of the list pane: a section header or a row.
enum ListLine: Equatable {
    case header(String)
    case row(index: Int, NoteRow)
}

extension AppState {
    /// The list pane's lines: FAVORITES and its rows, then NOTES and its rows; an empty
    /// section has no header.
    var listLines: [ListLine] {
        let visible = visibleRows
        var lines: [ListLine] = []
        if !visible.favorites.isEmpty {
            lines.append(.header("FAVORITES"))
            for (i, row) in visible.favorites.enumerated() { lines.append(.row(index: i, row)) }
        }
        if !visible.notes.isEmpty {
            lines.append(.header("NOTES"))
            let base = visible.favorites.count
            for (i, row) in visible.notes.enumerated() { lines.append(.row(index: base + i, row)) }
        }
        return lines
    }

    /// The list line showing row `index`.
    func listLine(ofRow index: Int) -> Int {
        let favoriteCount = visibleRows.favorites.count
        let favoriteLines = favoriteCount == 0 ? 0 : favoriteCount + 1
        return index < favoriteCount ? index + 1 : favoriteLines + 1 + (index - favoriteCount)
    }
}
