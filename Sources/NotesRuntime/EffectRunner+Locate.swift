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

    /// The note's row over FAVORITES then NOTES (`NoteStore.listRow`, counted in one read).
    static func listIndex(_ store: NoteStore, of id: UUID) throws -> Int? {
        try store.listRow(of: id)
    }
}
