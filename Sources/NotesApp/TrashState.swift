import Foundation

/// The Trash view (`T`): the notes in the trash, most recently trashed first, one selected.
///
/// The selection is a note, not a row, as in the list (ARCHITECTURE §6): it stays on its note
/// while the note is in the trash; when the note leaves (restored, purged, here or elsewhere),
/// the row that took its place is selected.
public struct TrashState: Equatable, Sendable {
    /// The trashed notes loaded so far (nil while loading), most recently trashed first.
    public var rows: [NoteRow]?
    /// How many notes the trash holds in all.
    public var totalCount = 0
    /// The selected note, and its row among `rows`.
    public var selectedID: UUID?
    public var selection = 0
    /// How many rows were asked for; grows as the selection nears the end of them.
    var limit: Int
    /// A row past the loaded ones the selection is heading for (`G`, `PgDn`): it moves on as
    /// the rows arrive.
    var wanted: Int?
    /// The note `X` (or `D`) asks about: "Delete forever …? y/n". Nothing is purged without `y`.
    public var confirmingPurge: NoteRow?

    init(limit: Int) {
        self.limit = limit
    }

    /// The selected note's row, when loaded.
    public var selectedRow: NoteRow? {
        guard let rows, rows.indices.contains(selection), rows[selection].id == selectedID else { return nil }
        return rows[selection]
    }

    /// Rows past the loaded ones exist.
    var hasMore: Bool { (rows?.count ?? 0) < totalCount }
}
