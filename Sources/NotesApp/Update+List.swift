import Foundation
import NotesCore
import TerminalUI

extension AppState {
    /// Rows to ask the store for: the list pane's height plus as much again as a margin.
    var fetchLimit: Int { max(1, Layout(size).list.height) * 2 }

    /// Rows moved by PgUp/PgDn: the list pane's height less one line of overlap.
    var pageSize: Int { max(1, Layout(size).list.height - 1) }

    mutating func listKey(_ key: InputEvent.Key) -> [Effect] {
        switch key {
        case .character("j"), .down: return moveSelection(to: selection + 1)
        case .character("k"), .up: return moveSelection(to: selection - 1)
        case .character("g"), .home: return moveSelection(to: 0)
        case .character("G"), .end: return moveSelection(to: rowCount - 1)
        case .pageDown: return moveSelection(to: selection + pageSize)
        case .pageUp: return moveSelection(to: selection - pageSize)
        case .character("/"):
            focus = .search
        case .character("?"):
            focus = .help
        case .enter, .tab:
            guard let row = selectedRow else { return [] }
            return openEditor(row.id)
        case .escape:
            if searchResults != nil || !searchText.isEmpty { return clearSearch() }
        case .character("n"):
            return [.createNote]
        case .character("s"):
            return [.syncNow] + show("Syncing…")
        case .character("q"):
            return quit()
        case .character("f"):
            guard let row = selectedRow else { return [] }
            return [.toggleFavorite(row.id)]
        case .character("e"):
            guard let row = selectedRow else { return [] }
            // The external editor reads the store: what the pane has typed goes there first.
            return (editor?.noteID == row.id ? saveEditor() : []) + [.openExternalEditor(row.id)]
        case .character("h"):
            guard let row = selectedRow else { return [] }
            return openHistory(row)
        case .character("c"):
            if let row = selectedRow, row.syncState == .conflict { return openResolver(row.id, title: row.title) }
            return [.loadConflicts(limit: 100)]
        case .character("d"):
            return trashSelected()
        case .character("u"):
            guard let id = undoableTrash else { return [] }
            undoableTrash = nil
            return [.undoTrash(id)] + show("Restored from the trash")
        default:
            break
        }
        return []
    }

    mutating func trashSelected() -> [Effect] {
        guard let row = selectedRow else { return [] }
        var effects: [Effect] = []
        if editor?.noteID == row.id {
            effects += saveEditor()
            editor = nil
        }
        undoableTrash = row.id
        undoGeneration += 1
        let title = TextWidth.clip(TerminalSafeText.sanitize(row.title), to: 30, ellipsis: true)
        message = StatusMessage("Moved “\(title)” to the trash. u: undo")
        return effects + [
            .trash(row.id), .scheduleTimer(.expireUndo(generation: undoGeneration), after: Self.undoDuration),
        ]
    }

    mutating func searchKey(_ key: InputEvent.Key) -> [Effect] {
        switch key {
        case .character(let character):
            return setSearchText(searchText + String(character))
        case .backspace:
            return setSearchText(String(searchText.dropLast()))
        case .escape:
            return clearSearch()
        case .enter:
            focus = .list
            return moveSelection(to: 0)
        case .down, .up:
            focus = .list
            return listKey(key)
        default:
            return []
        }
    }

    mutating func helpKey(_ key: InputEvent.Key) -> [Effect] {
        switch key {
        case .escape, .character("?"): focus = .list
        case .character("q"): return quit()
        default: break
        }
        return []
    }

    /// Sets the query; a non-empty one is searched at once (every keystroke), an empty one
    /// shows the whole list again.
    mutating func setSearchText(_ text: String) -> [Effect] {
        searchText = text
        if text.isEmpty {
            searchResults = nil
            selection = 0
            scrollOffset = 0
            return loadWindowIfNeeded(force: false)
        }
        searchLimit = fetchLimit
        return [.search(query: text, limit: searchLimit)]
    }

    mutating func clearSearch() -> [Effect] {
        searchText = ""
        searchResults = nil
        focus = .list
        selection = 0
        scrollOffset = 0
        return loadWindowIfNeeded(force: false)
    }

    mutating func searchAnswered(query: String, rows: [NoteRow]) -> [Effect] {
        guard query == searchText, !query.isEmpty else { return [] }
        // A longer page for the same query keeps the selection; a new query starts at the top.
        let samePage = searchResults.map { old in old.first?.id == rows.first?.id && rows.count >= old.count } ?? false
        searchResults = rows.filter(\.isFavorite) + rows.filter { !$0.isFavorite }
        if samePage {
            clampSelection()
        } else {
            selection = 0
            scrollOffset = 0
        }
        return []
    }

    mutating func listLoaded(_ window: ListWindow) -> [Effect] {
        let selectedID = searchResults == nil ? selectedRow?.id : nil
        listWindow = window
        if let requested = requestedWindow, requested.lowerBound == window.offset { requestedWindow = nil }
        guard searchResults == nil else { return [] }
        // The selection stays on its note when the list changes around it (a favorite moves
        // up, a synced note arrives on top), as long as the note is in the new window.
        if let selectedID, let index = window.rows.firstIndex(where: { $0.id == selectedID }) {
            selection = window.offset + index
        }
        clampSelection()
        return []
    }

    /// Asks again for what is on screen: the search, or the list window.
    mutating func reloadList() -> [Effect] {
        if searchResults != nil, !searchText.isEmpty {
            return [.search(query: searchText, limit: max(searchLimit, fetchLimit))]
        }
        return loadWindowIfNeeded(force: true)
    }

    @discardableResult
    mutating func moveSelection(to index: Int) -> [Effect] {
        selection = max(0, min(index, rowCount - 1))
        keepSelectionVisible()
        return loadWindowIfNeeded(force: false)
    }

    mutating func clampSelection() {
        selection = max(0, min(selection, rowCount - 1))
        keepSelectionVisible()
    }

    /// Asks for the rows around the visible ones when they are not loaded (or asked for) yet;
    /// while searching, asks for more results when the selection nears the end of them.
    mutating func loadWindowIfNeeded(force: Bool) -> [Effect] {
        let height = max(1, Layout(size).list.height)
        if let results = searchResults {
            guard results.count >= searchLimit, selection + height >= results.count, !searchText.isEmpty
            else { return [] }
            searchLimit = results.count + fetchLimit
            return [.search(query: searchText, limit: searchLimit)]
        }
        let first = max(0, firstRow(onOrAfterLine: scrollOffset))
        let needed = first..<(first + height)
        let loaded = listWindow.offset..<(listWindow.offset + listWindow.rows.count)
        let total = listWindow.totalCount
        let covered = { (range: Range<Int>) in
            range.lowerBound <= needed.lowerBound && range.upperBound >= min(needed.upperBound, total)
        }
        if !force && (covered(loaded) || requestedWindow.map(covered) == true) { return [] }
        let offset = max(0, first - height)
        let request = offset..<(offset + height * 3)
        requestedWindow = request
        return [.loadList(offset: request.lowerBound, limit: request.count)]
    }

    /// Scrolls the list so the selected row is on screen, with its section header when the
    /// row is the first of its section.
    mutating func keepSelectionVisible() {
        let height = Layout(size).list.height
        guard height > 0, rowCount > 0 else {
            scrollOffset = 0
            return
        }
        let line = listLine(ofRow: selection)
        let isFirstOfSection = selection == 0 || selection == favoriteCount
        let top = isFirstOfSection ? line - 1 : line
        if top < scrollOffset { scrollOffset = max(0, top) }
        if line >= scrollOffset + height { scrollOffset = line - height + 1 }
        scrollOffset = max(0, min(scrollOffset, listLineCount - 1))
    }
}
