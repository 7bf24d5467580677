import Foundation
import NotesCore
import TerminalUI

/// The selection is a note, not a row (ARCHITECTURE §6): `selectedID` stays selected while it
/// is listed, wherever it moves (a favorite changes section, a search ranks it elsewhere, a
/// write elsewhere shifts it); when it is not listed any more, the row that took its place is.
extension AppState {
    /// Rows to ask the store for: the list pane's height plus as much again as a margin.
    var fetchLimit: Int { max(1, Layout(size).list.height) * 2 }

    /// Rows a window asks for: a page above the visible one, the page and a page below.
    var windowLimit: Int { max(1, Layout(size).list.height) * 3 }

    /// Rows moved by PgUp/PgDn: the list pane's height less one line of overlap.
    var pageSize: Int { max(1, Layout(size).list.height - 1) }

    /// Moves the selection to row `index` (clamped); in search results, an index past the
    /// loaded ones asks for more and the selection follows them as they arrive.
    @discardableResult
    mutating func moveSelection(to index: Int) -> [Effect] {
        if let results = searchResults {
            searchWanted = index >= results.count && !searchComplete ? .row(index) : nil
        }
        selection = max(0, min(index, rowCount - 1))
        selectedID = row(at: selection)?.id
        keepSelectionVisible()
        return loadWindowIfNeeded(force: false)
    }

    /// Moves by `delta` rows from where the selection is, or from where it is heading when
    /// the results it asked for have not arrived: ten `j` held past the loaded results move
    /// ten rows, and `k` after `G` selects the result before the last.
    mutating func moveSelection(by delta: Int) -> [Effect] {
        switch searchWanted {
        case .row(let row)?:
            return moveSelection(to: max(0, row.addingReportingOverflow(delta).partialValue))
        case .fromEnd(let less)?:
            return moveSelectionToEnd(less: max(0, less - delta))
        case nil:
            return moveSelection(to: selection + delta)
        }
    }

    /// Selects the row `less` rows before the last (`G`: 0). In search results not all
    /// loaded yet, the rest are asked for and the selection lands when they arrive.
    mutating func moveSelectionToEnd(less: Int) -> [Effect] {
        guard let results = searchResults, !searchComplete else {
            return moveSelection(to: max(0, rowCount - 1 - less))
        }
        searchWanted = .fromEnd(less: less)
        selection = max(0, results.count - 1)
        selectedID = row(at: selection)?.id
        keepSelectionVisible()
        return loadWindowIfNeeded(force: false)
    }

    mutating func clampSelection() {
        selection = max(0, min(selection, rowCount - 1))
        keepSelectionVisible()
    }

    /// The note under `selection` becomes the selected one when nothing is selected yet.
    mutating func adoptSelectedRow() {
        if selectedID == nil { selectedID = row(at: selection)?.id }
    }

    /// A window of the whole list arrived (`Effect.loadList`).
    mutating func listLoaded(_ window: ListWindow) -> [Effect] {
        let previousTotal = listWindow.totalCount
        listWindow = window
        if let requested = requestedWindow, requested.lowerBound == window.offset { requestedWindow = nil }
        guard searchResults == nil else { return [] }
        let loaded = window.offset..<(window.offset + window.rows.count)
        if let id = selectedID {
            if let index = window.rows.firstIndex(where: { $0.id == id }) {
                selection = window.offset + index
            } else if window.totalCount == 0 {
                selectedID = nil
            } else if loaded.contains(selection) || window.totalCount != previousTotal {
                // The list changed around the selected note: it moved out of this window, or
                // left the list. Find it (or the row that took its place).
                keepSelectionVisible()
                requestedWindow = nil
                return [.locateInList(id: id, row: selection, limit: windowLimit)]
            }
        }
        clampSelection()
        adoptSelectedRow()
        // A window asked for before the selection moved on (`g` then `G` faster than the store
        // answers) does not hold the rows on screen: ask for those again.
        return loadWindowIfNeeded(force: false)
    }

    /// `Effect.locateInList` answered: the selected note's row now, and the rows around it.
    mutating func listLocated(id: UUID, row: Int?, window: ListWindow) -> [Effect] {
        listWindow = window
        requestedWindow = nil
        guard searchResults == nil else { return [] }
        if selectedID == id {
            if let row {
                selection = row
            } else {
                // Not listed any more: the row that took its place (the same index) is selected.
                selectedID = nil
            }
        } else if let selected = selectedID, let index = window.rows.firstIndex(where: { $0.id == selected }) {
            selection = window.offset + index
        }
        clampSelection()
        adoptSelectedRow()
        return loadWindowIfNeeded(force: false)
    }

    /// Asks again for what is on screen: the search, or the list around the selected note.
    mutating func reloadList() -> [Effect] {
        if searchResults != nil, !searchText.isEmpty {
            return [.search(query: searchText, limit: max(searchLimit, fetchLimit))]
        }
        if let id = selectedID {
            requestedWindow = nil
            return [.locateInList(id: id, row: selection, limit: windowLimit)]
        }
        return loadWindowIfNeeded(force: true)
    }

    /// Sets the query; a non-empty one is searched at once (every keystroke), an empty one
    /// shows the whole list again.
    mutating func setSearchText(_ text: String) -> [Effect] {
        searchText = text
        if text.isEmpty { return leaveSearch() }
        searchLimit = fetchLimit
        searchWanted = nil
        return [.search(query: text, limit: searchLimit)]
    }

    mutating func clearSearch() -> [Effect] {
        searchText = ""
        focus = .list
        return leaveSearch()
    }

    /// Back to the whole list, on the note selected in the results. The list window may be
    /// stale (writes made while searching reloaded only the results), so it is always reloaded.
    mutating func leaveSearch() -> [Effect] {
        searchResults = nil
        resultsQuery = nil
        searchWanted = nil
        requestedWindow = nil
        selection = 0
        guard let id = selectedID else {
            scrollOffset = 0
            return loadWindowIfNeeded(force: true)
        }
        return [.locateInList(id: id, row: 0, limit: windowLimit)]
    }

    /// True when the loaded results are all there are (fewer came back than were asked for).
    var searchComplete: Bool { (searchResults?.count ?? 0) < searchAnsweredLimit }

    /// Results for `query`, at most `limit` of them (fewer: they are all there are). An
    /// answer to an earlier, smaller request can arrive after a bigger one was asked for:
    /// its own limit, not the latest, says whether it is complete.
    mutating func searchAnswered(query: String, rows: [NoteRow], limit: Int) -> [Effect] {
        guard query == searchText, !query.isEmpty else { return [] }
        // One ranked list, in the store's order (ARCHITECTURE §5): favorites keep their ★ and their rank.
        let newQuery = resultsQuery != query
        let previous = selection
        searchResults = rows
        resultsQuery = query
        searchAnsweredLimit = limit
        if newQuery { searchWanted = nil }
        if let wanted = searchWanted {
            let target: Int
            switch wanted {
            case .row(let row): target = row
            case .fromEnd(let less): target = searchComplete ? rows.count - 1 - less : Int.max
            }
            selection = max(0, min(target, rows.count - 1))
            selectedID = row(at: selection)?.id
            if target < rows.count || searchComplete { searchWanted = nil }
        } else if let id = selectedID, let index = rows.firstIndex(where: { $0.id == id }) {
            selection = index
        } else if !newQuery, selectedID != nil, !searchComplete {
            // The selected note may have moved past the loaded results (notes ranked above it
            // arrived): look further before giving it up.
            selection = max(0, min(previous, rows.count - 1))
            searchLimit = max(searchLimit * 2, rows.count + fetchLimit)
            return [.search(query: query, limit: searchLimit)]
        } else {
            // A new query starts at its top result; a reload puts the row that took the
            // selected note's place under the selection.
            selection = newQuery ? 0 : max(0, min(previous, rows.count - 1))
            selectedID = row(at: selection)?.id
        }
        keepSelectionVisible()
        return loadWindowIfNeeded(force: false) + viewShown(query)
    }

    /// `Action.noteCreated`: the new note is selected (a search is cleared so it is listed)
    /// and opens in the editor.
    mutating func noteCreated(_ id: UUID) -> [Effect] {
        let locate = selectInWholeList(id)
        return openNewNote(id) + locate
    }

    /// Selects note `id` in the whole list (a search is cleared so it is listed) and asks
    /// where it is listed.
    mutating func selectInWholeList(_ id: UUID) -> [Effect] {
        searchText = ""
        searchResults = nil
        resultsQuery = nil
        searchWanted = nil
        selectedID = id
        requestedWindow = nil
        return [.locateInList(id: id, row: 0, limit: windowLimit)]
    }

    /// Asks for the rows around the visible ones when they are not loaded (or asked for) yet;
    /// while searching, asks for more results when the selection nears the end of them or
    /// heads past them.
    mutating func loadWindowIfNeeded(force: Bool) -> [Effect] {
        let height = max(1, Layout(size).list.height)
        if let results = searchResults {
            guard !searchText.isEmpty, !searchComplete else { return [] }
            let needed: Int
            switch searchWanted {
            case .row(let row)?:
                needed = row.addingReportingOverflow(fetchLimit).partialValue
            case .fromEnd?:
                needed = max(results.count * 2, results.count + fetchLimit)
            case nil:
                guard selection + height >= results.count else { return [] }
                needed = results.count + fetchLimit
            }
            guard needed > searchLimit else { return [] }
            searchLimit = needed
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
