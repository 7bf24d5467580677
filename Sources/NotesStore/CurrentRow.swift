import GRDB
import GRDBSQLite

/// The current row of a statement, its columns read in place through SQLite's C API: what a
/// search reads from each of thousands of rows. (GRDB's `Row.withUnsafeData` makes a `Data`
/// per column read, and a `String` column checks its UTF-8: the summary of each hit read that
/// way was a sixth of the thread that reads a search of every match, D-237.) Valid only until
/// the statement steps again.
struct CurrentRow {
    private let handle: SQLiteStatement

    init(_ statement: Statement) {
        handle = statement.sqliteStatement
    }

    func isNull(_ column: Int) -> Bool { sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL }

    /// The bytes of a text or blob column as SQLite holds them (a number as its text); empty for
    /// NULL, as `withUnsafeData` gives nil.
    func bytes(_ column: Int) -> UnsafeBufferPointer<UInt8> {
        guard let start = sqlite3_column_blob(handle, Int32(column)) else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// An integer column (0 for NULL, as SQLite converts it).
    func int64(_ column: Int) -> Int64 { sqlite3_column_int64(handle, Int32(column)) }
}
