import Foundation
import GRDB

/// Merges segments of the search index into one, in three steps:
///
/// 1. **plan** (`init`): read the segments' document tables, keep the documents a note still
///    holds (`note.searchRowid`), number them in the merged segment, and decide how lists are
///    merged;
/// 2. **copy**, when the segments follow one another in time and lose nothing (an import's):
///    each merged list is the segments' lists one after another, shifted; only the first gap of
///    each is encoded again (`PostingMerger.append`);
/// 3. or **re-encode**, otherwise: every list is decoded, renumbered (dropping documents no
///    note holds any more) and united (`PostingMerger.add`).
///
/// `write` then stores the merged segment and deletes the old ones, in the caller's transaction.
/// A list or table that does not decode throws `SearchIndexDamage` (the caller rebuilds).
struct SegmentMerge {
    /// The segments merged, oldest first.
    let ids: [Int64]
    /// Each segment's searchRowids, as stored.
    let tables: [[Int64]]
    /// The merged segment's searchRowids: every live document of the segments, sorted.
    let documents: [Int64]
    /// How lists are merged.
    let mode: Mode

    enum Mode {
        /// Segment `i`'s documents move up by `offsets[i]`.
        case copy(offsets: [UInt32])
        /// Segment `i`'s document `d` becomes `renumber[i][d]` (`UInt32.max`: dropped). Monotonic,
        /// so a renumbered list stays sorted.
        case reencode(renumber: [[UInt32]])
    }

    /// Step 1: reads the segments' tables and plans the merge.
    init(_ ids: [Int64], _ db: Database) throws {
        self.ids = ids
        var tables: [[Int64]] = []
        for id in ids {
            let blob = try Data.fetchOne(db, sql: "SELECT docs FROM search_segment WHERE id = ?", arguments: [id])
            tables.append(try blob.map(SegmentDocs.decode) ?? [])
        }
        self.tables = tables
        let isLive = try Self.liveness(documents: tables.reduce(0) { $0 + $1.count }, db)
        var live: [Int64] = []
        for table in tables {
            for rowid in table where try isLive(rowid) { live.append(rowid) }
        }
        live.sort()
        var documents: [Int64] = []
        documents.reserveCapacity(live.count)
        for rowid in live where documents.last != rowid { documents.append(rowid) }
        self.documents = documents
        let renumber: [[UInt32]] = tables.map { table in
            table.map { rowid in SegmentDocs.index(of: rowid, in: documents).map(UInt32.init) ?? .max }
        }
        mode = Self.follow(renumber).map { .copy(offsets: $0) } ?? .reencode(renumber: renumber)
    }

    /// Whether a searchRowid still names a note: one query for large merges, one lookup each else.
    private static func liveness(documents: Int, _ db: Database) throws -> (Int64) throws -> Bool {
        if documents > 20_000 {
            let live = Set(try Int64.fetchAll(db, sql: "SELECT searchRowid FROM note WHERE searchRowid IS NOT NULL"))
            return { live.contains($0) }
        }
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM note WHERE searchRowid = ?")
        return { try Bool.fetchOne(statement, arguments: [$0]) == true }
    }

    /// Each segment's shift when the renumbered segments follow one another and lose nothing
    /// (every segment's documents consecutive, each after the last); nil otherwise.
    private static func follow(_ renumber: [[UInt32]]) -> [UInt32]? {
        var nextFree: UInt32 = 0
        for map in renumber where !map.isEmpty {
            guard let first = map.first, let last = map.last, first != .max, last != .max,
                Int(last - first) == map.count - 1, first >= nextFree
            else { return nil }
            nextFree = last + 1
        }
        return renumber.map { $0.first ?? 0 }
    }

    /// Steps 2 or 3 for every key, then the old segments are deleted.
    func write(_ db: Database) throws {
        if !documents.isEmpty {
            try db.run(
                "INSERT INTO search_segment(documents, docs) VALUES (?, ?)",
                [documents.count, SegmentDocs.encode(documents)])
            try writeLists(into: db.lastInsertedRowID, db)
        }
        for id in ids {
            try db.run("DELETE FROM search_posting WHERE rowid >= ? AND rowid < ?", [id << 25, (id + 1) << 25])
            try db.run("DELETE FROM search_segment WHERE id = ?", [id])
        }
    }

    /// Reads the segments' lists a range of keys at a time (all at once for small segments,
    /// else by the first byte of the key: 512 ranges over both key spaces) and writes each
    /// key's merged list.
    private func writeLists(into segment: Int64, _ db: Database) throws {
        let step: UInt32 = tables.reduce(0, { $0 + $1.count }) < 5_000 ? SearchKeys.limit : 1 << 16
        var merger = PostingMerger()
        var low: UInt32 = 0
        while low < SearchKeys.limit {
            let rows = try lists(keys: low..<(low + step), db)
            var start = 0
            while start < rows.count {
                var end = start
                merger.reset()
                while end < rows.count, rows[end].key == rows[start].key {
                    try merge(rows[end], into: &merger)
                    end += 1
                }
                if let bytes = try merged(&merger) {
                    try SearchIndex.insertPosting(segment: segment, key: rows[start].key, Data(bytes), db)
                }
                start = end
            }
            low += step
        }
    }

    /// The lists of `keys` in every segment: (key, segment position, blob), in key then
    /// segment order.
    private func lists(keys: Range<UInt32>, _ db: Database) throws -> [(key: UInt32, segment: Int, blob: Data)] {
        var rows: [(key: UInt32, segment: Int, blob: Data)] = []
        for (position, id) in ids.enumerated() {
            let cursor = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT rowid, docs FROM search_posting WHERE rowid >= ? AND rowid < ?"),
                arguments: [id << 25 + Int64(keys.lowerBound), id << 25 + Int64(keys.upperBound)])
            while let row = try cursor.next() {
                let key = UInt32(truncatingIfNeeded: (row[0] as Int64) & Int64(SearchKeys.limit - 1))
                rows.append((key, position, row[1]))
            }
        }
        rows.sort { ($0.key, $0.segment) < ($1.key, $1.segment) }
        return rows
    }

    private func merge(_ row: (key: UInt32, segment: Int, blob: Data), into merger: inout PostingMerger) throws {
        try row.blob.withUnsafeBytes { blob in
            switch mode {
            case .copy(let offsets):
                try merger.append(blob, shiftedBy: offsets[row.segment], documents: tables[row.segment].count)
            case .reencode(let renumber):
                try merger.add(blob, renumber: renumber[row.segment])
            }
        }
    }

    private func merged(_ merger: inout PostingMerger) throws -> [UInt8]? {
        switch mode {
        case .copy: return try merger.concatenation()
        case .reencode: return merger.encoded()
        }
    }
}
