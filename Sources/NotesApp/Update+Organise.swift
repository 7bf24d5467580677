import Foundation
import NotesCore
import TerminalUI

/// Notebooks, tags, links and the day's note in the app (ARCHITECTURE §6): the pickers filter
/// the list through the search (`in:notebook`, `tag:name`), so every list behaviour (paging,
/// the selection, reloads) is the search's.
extension AppState {
    /// The notebook the search keeps (`in:zone`), when it has one.
    public var notebookFilter: String? { searchText.isEmpty ? nil : SearchQuery(parsing: searchText).notebook }

    mutating func pickerLoaded(_ kind: PickerState.Kind, _ items: [PickerItem]) -> [Effect] {
        switch focus {
        case .list, .search, .picker: break
        case .editor, .help, .history, .resolver, .trash: return []
        }
        var choices = items
        var selected = 0
        switch kind {
        case .notebook:
            // Notebooks, then the saved searches beneath them.
            let notebooks = items.filter { $0.query == nil }
            notebookNames = Dictionary(notebooks.map { ($0.value, $0.label) }, uniquingKeysWith: { first, _ in first })
            choices =
                [PickerItem(label: "All notebooks", value: "", count: notebooks.reduce(0) { $0 + $1.count })]
                + notebooks + items.filter { $0.query != nil }
            if let view = choices.firstIndex(where: { $0.query != nil && $0.query == searchText }) {
                selected = view
            } else if let zone = notebookFilter {
                selected = choices.firstIndex { $0.value == zone && $0.query == nil } ?? 0
            }
        case .tag:
            guard !items.isEmpty else { return show("No tags yet") }
            let current = searchText.isEmpty ? [] : SearchQuery(parsing: searchText).tags
            if let tag = current.first { selected = choices.firstIndex { TextFolding.fold($0.value) == tag } ?? 0 }
        }
        focus = .picker(PickerState(kind: kind, items: choices, selection: selected))
        return []
    }

    mutating func pickerKey(_ key: InputEvent.Key) -> [Effect] {
        guard case .picker(var open) = focus, !open.items.isEmpty else {
            focus = .list
            return []
        }
        switch key {
        case .character("j"), .down: open.selection = min(open.selection + 1, open.items.count - 1)
        case .character("k"), .up: open.selection = max(open.selection - 1, 0)
        case .character("g"), .home: open.selection = 0
        case .character("G"), .end: open.selection = open.items.count - 1
        case .escape, .character("q"):
            focus = .list
            return []
        case .enter:
            return choose(open.items[open.selection], kind: open.kind)
        default:
            return []
        }
        focus = .picker(open)
        return []
    }

    /// Filters the list by the chosen notebook or tag ("All notebooks" shows every note again).
    mutating func choose(_ item: PickerItem, kind: PickerState.Kind) -> [Effect] {
        focus = .list
        if let query = item.query { return setSearchText(query) }
        switch kind {
        case .notebook where item.value.isEmpty: return clearSearch()
        case .notebook: return setSearchText("in:" + item.value)
        case .tag: return setSearchText("tag:" + item.value)
        }
    }

    /// `Action.openNote`: the note is selected (a search is cleared so it is listed) and opens
    /// in the editor (the day's note, a followed link).
    mutating func openNote(_ id: UUID) -> [Effect] {
        let locate = selectInWholeList(id)
        focus = .list
        return openEditor(id) + locate
    }

    /// `L`: follows the first link of the previewed note.
    mutating func followPreviewLink() -> [Effect] {
        guard let row = selectedRow, let note = preview, note.id == row.id else { return [] }
        guard let link = LinkParser.links(in: note.body).first else { return show("No links in this note") }
        return [.followLink(target: link.target, folder: link.folder, from: note.id)]
    }

    /// `^]` in the editor: follows the link under the cursor (its open text is saved first).
    mutating func followLinkUnderCursor() -> [Effect] {
        guard case .loaded(let open) = editor else { return [] }
        let text = open.textEditor
        guard text.lines.indices.contains(text.cursor.line) else { return [] }
        let line = text.lines[text.cursor.line]
        let offset = line.prefix(text.cursor.column).utf8.count
        let links = LinkParser.links(in: line)
        guard let link = links.first(where: { $0.range.lowerBound <= offset && offset < $0.range.upperBound }) else {
            return show("No link under the cursor")
        }
        return saveEditor() + [.followLink(target: link.target, folder: link.folder, from: open.noteID)]
    }
}
