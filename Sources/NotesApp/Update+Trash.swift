import Foundation
import NotesCore
import TerminalUI

/// The Trash view (`T`): restore (`r`, Enter) or delete forever (`X`, `D`, then `y`).
extension AppState {
    /// Rows the Trash view asks for at first: two screens.
    var trashFetchLimit: Int { max(1, Layout(size).middle.height) * 2 }

    mutating func openTrash() -> [Effect] {
        let view = TrashState(limit: trashFetchLimit)
        focus = .trash(view)
        return [.loadTrash(limit: view.limit)]
    }

    mutating func closeTrash() -> [Effect] {
        if case .trash = focus { focus = .list }
        // Back on the list, on the note restored last when there was one (selection by id).
        return reloadList()
    }

    /// `Effect.loadTrash` answered: the selected note stays selected while it is in the trash;
    /// when it left, the row that took its place is.
    mutating func trashLoaded(rows: [NoteRow], total: Int) -> [Effect] {
        guard case .trash(var view) = focus else { return [] }
        view.rows = rows
        view.totalCount = max(total, rows.count)
        if let wanted = view.wanted, !rows.isEmpty {
            view.selection = min(wanted, rows.count - 1)
            view.selectedID = rows[view.selection].id
            if wanted < rows.count || rows.count >= view.totalCount { view.wanted = nil }
        } else if let id = view.selectedID, let index = rows.firstIndex(where: { $0.id == id }) {
            view.selection = index
        } else {
            view.selection = max(0, min(view.selection, rows.count - 1))
            view.selectedID = rows.indices.contains(view.selection) ? rows[view.selection].id : nil
        }
        if let asked = view.confirmingPurge, !rows.contains(where: { $0.id == asked.id }) {
            // Restored or purged elsewhere while the question was up: nothing to ask any more.
            view.confirmingPurge = nil
        }
        focus = .trash(view)
        return []
    }

    mutating func trashKey(_ key: InputEvent.Key) -> [Effect] {
        guard case .trash(var view) = focus else { return [] }
        if let asked = view.confirmingPurge {
            view.confirmingPurge = nil
            focus = .trash(view)
            guard key == .character("y") else { return show("Nothing deleted") }
            return purge(asked)
        }
        let count = view.rows?.count ?? 0
        let page = max(1, Layout(size).middle.height - 2)
        switch key {
        case .character("j"), .down: return moveTrashSelection(to: view.selection + 1)
        case .character("k"), .up: return moveTrashSelection(to: view.selection - 1)
        case .character("g"), .home: return moveTrashSelection(to: 0)
        case .character("G"), .end: return moveTrashSelection(to: max(count, view.totalCount) - 1)
        case .pageDown: return moveTrashSelection(to: view.selection + page)
        case .pageUp: return moveTrashSelection(to: view.selection - page)
        case .character("r"), .enter:
            return restoreFromTrash()
        case .character("X"), .character("D"):
            guard let row = view.selectedRow else { return [] }
            view.confirmingPurge = row
            focus = .trash(view)
        case .escape, .character("T"), .character("q"):
            return closeTrash()
        default:
            break
        }
        return []
    }

    /// Moves the Trash view's selection (clamped to the loaded rows); near their end, more
    /// rows are asked for.
    mutating func moveTrashSelection(to index: Int) -> [Effect] {
        guard case .trash(var view) = focus, let rows = view.rows, !rows.isEmpty else { return [] }
        view.selection = max(0, min(index, rows.count - 1))
        view.selectedID = rows[view.selection].id
        view.wanted = index >= rows.count && view.hasMore ? min(index, view.totalCount - 1) : nil
        var effects: [Effect] = []
        let wantsMore = view.wanted != nil || view.selection + trashFetchLimit / 2 >= rows.count
        if wantsMore && view.hasMore && view.limit <= rows.count {
            view.limit = max(view.limit * 2, (view.wanted ?? view.selection) + trashFetchLimit)
            effects.append(.loadTrash(limit: view.limit))
        }
        focus = .trash(view)
        return effects
    }

    /// `r`: the selected note goes back to the list, where it is the selected note; the
    /// Trash view stays, on the next row.
    mutating func restoreFromTrash() -> [Effect] {
        guard case .trash(let view) = focus, let row = view.selectedRow else { return [] }
        removeFromTrashView(row.id)
        // Selected by id in the list: found there once the store has it back.
        selectedID = row.id
        return [.undoTrash(row.id)] + show("Restored “\(Self.shortTitle(row.title))” to the notes")
    }

    /// `y` to "Delete forever …?": the note is purged (only if it is still in the trash).
    mutating func purge(_ row: NoteRow) -> [Effect] {
        removeFromTrashView(row.id)
        // Open in the editor still (trashed elsewhere): there is nothing left to save it into.
        if editor.noteID == row.id { editor = .closed }
        return [.purge(row.id)] + show("Deleted “\(Self.shortTitle(row.title))” forever")
    }

    /// Takes the note's row out of the view now, so the next key acts on the row that took its
    /// place; the reload once the store has the change agrees.
    private mutating func removeFromTrashView(_ id: UUID) {
        guard case .trash(var view) = focus, var rows = view.rows, let index = rows.firstIndex(where: { $0.id == id })
        else { return }
        rows.remove(at: index)
        view.rows = rows
        view.totalCount = max(0, view.totalCount - 1)
        view.selection = max(0, min(view.selection, rows.count - 1))
        view.selectedID = rows.indices.contains(view.selection) ? rows[view.selection].id : nil
        focus = .trash(view)
    }

    /// A note's title for a status message: made safe, at most 30 columns.
    static func shortTitle(_ title: String) -> String {
        TextWidth.clip(TerminalSafeText.sanitize(title.isEmpty ? "Untitled" : title), to: 30, ellipsis: true)
    }
}
