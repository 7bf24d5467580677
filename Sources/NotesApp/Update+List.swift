import Foundation
import NotesCore
import TerminalUI

extension AppState {
    mutating func listKey(_ key: InputEvent.Key) -> [Effect] {
        switch key {
        case .character("j"), .down: return moveSelection(by: 1)
        case .character("k"), .up: return moveSelection(by: -1)
        case .character("g"), .home: return moveSelection(to: 0)
        case .character("G"), .end: return moveSelectionToEnd(less: 0)
        case .pageDown: return moveSelection(by: pageSize)
        case .pageUp: return moveSelection(by: -pageSize)
        case .character("/"):
            focus = .search
            searchCursor = searchText.count
        case .character("?"):
            focus = .help(scroll: 0)
        case .enter, .tab:
            guard let row = selectedRow else { return [] }
            return openEditor(row.id)
        case .escape:
            if searchResults != nil || !searchText.isEmpty { return clearSearch() }
        case .character("n"):
            return [.createNote]
        case .character("s"):
            if syncLocked { return unlockNeeded() }
            return [.syncNow] + show("Syncing…")
        case .character("q"):
            return quit()
        case .character("f"):
            guard let row = selectedRow else { return [] }
            return [.toggleFavorite(row.id)]
        case .character("e"):
            guard let row = selectedRow else { return [] }
            // The external editor reads the store: what the pane has typed goes there first.
            return (editor.noteID == row.id ? saveEditor() : []) + [.openExternalEditor(row.id)]
        case .character("h"):
            guard let row = selectedRow else { return [] }
            return openHistory(row)
        case .character("c"):
            if let row = selectedRow, row.syncState == .conflict { return openResolver(row.id, title: row.title) }
            return [.loadConflicts(limit: 100)]
        case .character("d"):
            return trashSelected()
        case .character("a"), .character("o"):
            return attachmentKey(open: key == .character("o"))
        case .character(" "):
            return toggleTask()
        case .character("]"), .character("["):
            return moveTask(by: key == .character("]") ? 1 : -1)
        case .character("T"):
            return openTrash()
        case .character("N"):
            return [.loadNotebooks]
        case .character("#"):
            return [.loadTags]
        case .character("t"):
            return [.openToday]
        case .character("L"):
            return followPreviewLink()
        case .character("r"):
            previewShowsRaw.toggle()
            return show(previewShowsRaw ? "Preview: raw text (r: rendered)" : "Preview: rendered Markdown (r: raw)")
        case .character("u"):
            guard let id = undoableTrashes.popLast() else { return [] }
            guard !undoableTrashes.isEmpty else { return [.undoTrash(id)] + show("Restored from the trash") }
            // More to undo: the undo line stays, and its 15 s start again.
            undoGeneration += 1
            replaceMessage(StatusMessage("Restored from the trash. u: undo \(undoableTrashes.count) more"))
            undoMessageGeneration = messageGeneration
            return [
                .undoTrash(id), .scheduleTimer(.expireUndo(generation: undoGeneration), after: Self.undoDuration),
            ]
        default:
            break
        }
        return []
    }

    mutating func trashSelected() -> [Effect] {
        guard let row = selectedRow else { return [] }
        var effects: [Effect] = []
        if editor.noteID == row.id {
            effects += saveEditor()
            editor = .closed
        }
        if var results = searchResults, let index = results.firstIndex(where: { $0.id == row.id }) {
            // The results are reloaded once the store has it; the row that takes the trashed
            // note's place is selected now, so the reload need not look for the trashed one.
            results.remove(at: index)
            searchResults = results
            selectedID = nil
            clampSelection()
            adoptSelectedRow()
        }
        undoableTrashes.append(row.id)
        if undoableTrashes.count > Self.undoDepth { undoableTrashes.removeFirst() }
        undoGeneration += 1
        let title = TextWidth.clip(TerminalSafeText.sanitize(row.title), to: 30, ellipsis: true)
        let count = undoableTrashes.count
        replaceMessage(StatusMessage("Moved “\(title)” to the trash. u: undo" + (count > 1 ? " (\(count))" : "")))
        undoMessageGeneration = messageGeneration
        return effects + [
            .trash(row.id), .scheduleTimer(.expireUndo(generation: undoGeneration), after: Self.undoDuration),
        ]
    }

    mutating func searchKey(_ key: InputEvent.Key) -> [Effect] {
        switch key {
        case .character(let character):
            return insertInSearch(String(character))
        case .backspace:
            let cursor = searchCursor
            guard cursor > 0 else { return [] }
            return editSearch(removing: (cursor - 1)..<cursor)
        case .delete:
            let cursor = searchCursor
            guard cursor < searchText.count else { return [] }
            return editSearch(removing: cursor..<(cursor + 1))
        case .left:
            searchCursor = max(0, searchCursor - 1)
        case .right:
            searchCursor = min(searchText.count, searchCursor + 1)
        case .home:
            searchCursor = 0
        case .end:
            searchCursor = searchText.count
        case .escape:
            return clearSearch()
        case .enter:
            // The selection is already where the results put it: on the note selected before
            // when it is among them, else on the top result.
            focus = .list
            return []
        case .down, .up:
            focus = .list
            return listKey(key)
        default:
            break
        }
        return []
    }

    mutating func helpKey(_ key: InputEvent.Key) -> [Effect] {
        guard case .help(var scroll) = focus else { return [] }
        let last = max(0, helpLines.count - helpRows(size))
        switch key {
        case .escape, .character("?"):
            focus = .list
            return []
        case .character("q"): return quit()
        case .character("j"), .down: scroll = min(last, scroll + 1)
        case .character("k"), .up: scroll = max(0, scroll - 1)
        case .pageDown, .character(" "): scroll = min(last, scroll + max(1, helpRows(size) - 1))
        case .pageUp: scroll = max(0, scroll - max(1, helpRows(size) - 1))
        case .character("g"), .home: scroll = 0
        case .character("G"), .end: scroll = last
        default: break
        }
        focus = .help(scroll: scroll)
        return []
    }

    /// The search field's shell-line keys: ^U deletes to the start, ^W the word before the
    /// cursor, ^A and ^E go to the start and the end.
    mutating func searchControlKey(_ key: InputEvent.Key) -> [Effect] {
        let cursor = searchCursor
        switch key {
        case .character("u"):
            return cursor == 0 ? [] : editSearch(removing: 0..<cursor)
        case .character("w"):
            let before = Array(searchText.prefix(cursor))
            var start = cursor
            while start > 0 && before[start - 1] == " " { start -= 1 }
            while start > 0 && before[start - 1] != " " { start -= 1 }
            return start == cursor ? [] : editSearch(removing: start..<cursor)
        case .character("a"):
            searchCursor = 0
        case .character("e"):
            searchCursor = searchText.count
        default:
            break
        }
        return []
    }

    /// Types `text` at the search field's cursor.
    mutating func insertInSearch(_ text: String) -> [Effect] {
        guard !text.isEmpty else { return [] }
        let cursor = searchCursor
        var characters = Array(searchText)
        characters.insert(contentsOf: Array(text), at: cursor)
        let effects = setSearchText(String(characters))
        searchCursor = cursor + text.count
        return effects
    }

    /// Deletes the characters in `range` of the search text; the cursor goes to where they were.
    mutating func editSearch(removing range: Range<Int>) -> [Effect] {
        var characters = Array(searchText)
        characters.removeSubrange(range)
        let effects = setSearchText(String(characters))
        searchCursor = range.lowerBound
        return effects
    }
}
