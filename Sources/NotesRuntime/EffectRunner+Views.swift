import Foundation
import NotesApp
import NotesCore
import NotesStore

extension EffectRunner {
    /// The saved searches (synced settings `view.<name>`), for the notebook picker beneath the
    /// notebooks, each with how many notes it matches (counted up to `PickerItem.maxViewCount`).
    static func savedViews(_ store: NoteStore) throws -> [PickerItem] {
        try store.settingsState().views.map { name, query in
            // A view whose query no longer runs (its notebook was deleted) still shows, at 0:
            // choosing it says why in the status bar, as the search does.
            let count = (try? store.search(query, limit: PickerItem.maxViewCount + 1).hits.count) ?? 0
            return PickerItem(label: name, value: "", count: count, query: query)
        }
    }
}
