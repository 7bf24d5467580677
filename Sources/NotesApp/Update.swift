import Foundation
import NotesCore
import TerminalUI

/// Applies `action` to `state` and returns the work to do; pure, so tests compare both by value.
public func update(_ state: inout AppState, _ action: Action) -> [Effect] {
    switch action {
    case .input(.resize(let size)), .resize(let size):
        state.size = size
        state.keepSelectionVisible()
        return [.loadList(offset: 0, limit: state.fetchLimit)]
    case .input(.key(let key, let modifiers)):
        if modifiers.contains(.control) || modifiers.contains(.alt) { return [] }
        switch state.focus {
        case .list: return state.listKey(key)
        case .search: return state.searchKey(key)
        case .editor: return state.editorKey(key)
        case .help: return state.helpKey(key)
        }
    case .input(.paste(let text)):
        guard state.focus == .search else { return [] }
        // A search is one line: a pasted line break ends it.
        let line = text.prefix { $0 != "\n" && $0 != "\r" }
        return state.setSearchText(state.searchText + line)
    case .input(.mouse):
        return []
    case .rowsLoaded(let favorites, let notes):
        state.favorites = favorites
        state.notes = notes
        state.clampSelection()
        return []
    case .searchResults(let query, let rows):
        guard query == state.searchText, !query.isEmpty else { return [] }
        state.searchResults = rows
        state.selection = 0
        state.scrollOffset = 0
        return []
    case .syncStatusChanged(let status):
        state.syncStatus = status
        return []
    case .tick(let now):
        state.now = now
        return []
    }
}

extension AppState {
    /// Rows to ask the store for: the list pane's height plus as much again as a margin.
    var fetchLimit: Int { max(1, Layout(size).list.height) * 2 }

    /// Rows moved by PgUp/PgDn: the list pane's height less one line of overlap.
    var pageSize: Int { max(1, Layout(size).list.height - 1) }

    mutating func listKey(_ key: InputEvent.Key) -> [Effect] {
        let count = rows.count
        switch key {
        case .character("j"), .down: moveSelection(to: selection + 1)
        case .character("k"), .up: moveSelection(to: selection - 1)
        case .character("g"), .home: moveSelection(to: 0)
        case .character("G"), .end: moveSelection(to: count - 1)
        case .pageDown: moveSelection(to: selection + pageSize)
        case .pageUp: moveSelection(to: selection - pageSize)
        case .character("/"):
            focus = .search
        case .character("?"):
            focus = .help
        case .enter, .tab:
            if selectedRow != nil { focus = .editor }
        case .escape:
            if searchResults != nil || !searchText.isEmpty { clearSearch() }
        case .character("n"):
            return [.createNote]
        case .character("s"):
            return [.syncNow]
        case .character("q"):
            return [.quit]
        case .character("f"):
            guard let row = selectedRow else { return [] }
            return [.toggleFavorite(row.id)]
        case .character("e"):
            guard let row = selectedRow else { return [] }
            return [.openExternalEditor(row.id)]
        case .character("d"):
            guard let row = selectedRow else { return [] }
            undoableTrash = row.id
            let title = TextWidth.clip(TerminalSafeText.sanitize(row.title), to: 30, ellipsis: true)
            message = StatusMessage("Moved “\(title)” to the trash. u: undo")
            return [.trash(row.id)]
        case .character("u"):
            guard let id = undoableTrash else { return [] }
            undoableTrash = nil
            message = StatusMessage("Restored from the trash")
            return [.undoTrash(id)]
        default:
            break
        }
        return []
    }

    mutating func searchKey(_ key: InputEvent.Key) -> [Effect] {
        switch key {
        case .character(let character):
            return setSearchText(searchText + String(character))
        case .backspace:
            return setSearchText(String(searchText.dropLast()))
        case .escape:
            clearSearch()
        case .enter:
            focus = .list
            moveSelection(to: 0)
        case .down, .up:
            focus = .list
            return listKey(key)
        default:
            break
        }
        return []
    }

    /// The editor pane is a placeholder for now: Esc goes back to the list.
    mutating func editorKey(_ key: InputEvent.Key) -> [Effect] {
        if key == .escape { focus = .list }
        return []
    }

    mutating func helpKey(_ key: InputEvent.Key) -> [Effect] {
        switch key {
        case .escape, .character("?"): focus = .list
        case .character("q"): return [.quit]
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
            clampSelection()
            return []
        }
        return [.search(query: text, limit: fetchLimit)]
    }

    mutating func clearSearch() {
        searchText = ""
        searchResults = nil
        focus = .list
        selection = 0
        scrollOffset = 0
    }

    mutating func moveSelection(to index: Int) {
        selection = max(0, min(index, rows.count - 1))
        keepSelectionVisible()
    }

    mutating func clampSelection() {
        moveSelection(to: selection)
    }

    /// Scrolls the list so the selected row is on screen, with its section header when the
    /// row is the first of its section.
    mutating func keepSelectionVisible() {
        let height = Layout(size).list.height
        guard height > 0, !rows.isEmpty else {
            scrollOffset = 0
            return
        }
        let line = listLine(ofRow: selection)
        let favoriteCount = visibleRows.favorites.count
        let isFirstOfSection = selection == 0 || selection == favoriteCount
        let top = isFirstOfSection ? line - 1 : line
        if top < scrollOffset { scrollOffset = max(0, top) }
        if line >= scrollOffset + height { scrollOffset = line - height + 1 }
    }
}
