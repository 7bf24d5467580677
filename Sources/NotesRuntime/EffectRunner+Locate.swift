import Foundation
import NotesApp
import NotesCore
import NotesStore

extension EffectRunner {
    /// `Effect.locateInList`: note `id`'s row in FAVORITES then NOTES (nil when it is not
    /// listed) and the window of `limit` rows around it, or around `row` when it is not listed.
    static func locate(_ store: NoteStore, id: UUID, row: Int, limit: Int) throws -> Action {
        let index = try listIndex(store, of: id)
        let window = try listWindow(store, offset: ListWindow.offset(around: index ?? row, limit: limit), limit: limit)
        return .listLocated(id: id, row: index, window: window)
    }

    /// The note's row over FAVORITES then NOTES, both ordered by `modifiedAt DESC, id`
    /// (`NoteStore.list`): a binary search of its section by that key, one row per probe.
    /// Another write between probes can move it; the search is then tried again.
    static func listIndex(_ store: NoteStore, of id: UUID) throws -> Int? {
        for _ in 0..<3 {
            guard let note = try store.note(id), note.deletedAt == nil else { return nil }
            let section: ListSection = note.isFavorite ? .favorites : .others
            let key = note.id.lowercasedString
            /// True when `summary` sorts before the note.
            func precedes(_ summary: NoteSummary) -> Bool {
                summary.modifiedAt != note.modifiedAt
                    ? summary.modifiedAt > note.modifiedAt : summary.idString < key
            }
            var low = 0
            var high = try store.count(section)
            while low < high {
                let middle = low + (high - low) / 2
                guard let probe = try store.list(ListRequest(section: section, offset: middle, limit: 1)).first else {
                    high = middle
                    continue
                }
                if precedes(probe) { low = middle + 1 } else { high = middle }
            }
            let found = try store.list(ListRequest(section: section, offset: low, limit: 1)).first
            if found?.id == id { return note.isFavorite ? low : try store.count(.favorites) + low }
        }
        return nil
    }
}
