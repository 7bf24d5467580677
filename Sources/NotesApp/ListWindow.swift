/// A window of the list, as `Effect.loadList` asks for it: rows `offset..<offset + rows.count`
/// of FAVORITES followed by NOTES, and the sizes of both sections in the whole store.
///
/// Only this window is in memory, so a store of 100k notes costs what one of 100 does.
public struct ListWindow: Equatable, Sendable {
    /// Index (over favorites then notes) of the first row of `rows`.
    public var offset: Int
    public var rows: [NoteRow]
    /// How many favorites there are in all (they come first).
    public var favoriteCount: Int
    /// How many rows there are in all, favorites included.
    public var totalCount: Int

    public init(offset: Int, rows: [NoteRow], favoriteCount: Int, totalCount: Int) {
        self.offset = offset
        self.rows = rows
        self.favoriteCount = favoriteCount
        self.totalCount = totalCount
    }

    /// Where a window of `limit` rows that shows row `row` starts: a third of it above the row,
    /// so the rows on screen around it and a margin below are loaded.
    public static func offset(around row: Int, limit: Int) -> Int {
        max(0, row - limit / 3)
    }
}
