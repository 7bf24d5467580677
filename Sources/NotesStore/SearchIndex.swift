import Foundation
import GRDB
import NotesCore

/// Keeps the search tables in step with the notes (ARCHITECTURE §5).
///
/// - `search_text(rowid, title, body)`: the folded title, and the folded body and tags (tags
///   after a U+FFFF, which no query term contains), of every note that is not in the trash,
///   keyed by the note's `searchRowid`. Searches confirm every candidate here, so the index
///   may name more notes than match (a note since edited or trashed), never fewer.
/// - A trigram index of our own over that text (`SearchKeys`): immutable *segments*, each a
///   sorted table of the searchRowids it covers (`search_segment.docs`) and, per key, the
///   posting list of the documents whose text has that key (`search_posting`, rowid =
///   segment id << 25 + key, varint gaps of document numbers). Every write transaction adds
///   one segment for the notes it (re)indexed (`PendingIndex`, flushed by `NoteStore.write`;
///   a large transaction writes one per `maxPendingKeys`). Eight segments of a size class are
///   merged into one, dropping documents whose text is gone, so a single edit never inherits
///   the merge of a bulk write's segments and a query reads a few dozen segments at most.
///
/// Why not FTS5 (which stores every trigram's positions): its index cost 25-37 s of CPU for
/// 100k notes (insert plus merge), more than the whole import may take; these keys without
/// positions cost about a tenth, and what positions gave is a byte search (`memchr`/`memcmp`)
/// over the text a search reads anyway.
///
/// `searchRowid` is ordered by modification time (`modifiedAt` ms × `slotsPerMillisecond` + a
/// tie-breaker), so "most recent first" is "rowid descending": a search walks candidates that
/// way and stops after its first page instead of ranking every match.
enum SearchIndex {
    /// U+FFFF, a noncharacter: never typed, stripped from query terms; separates body and tags.
    static let sentinel = "\u{FFFF}"

    /// Reindexes `note`; returns its searchRowid (nil when in the trash). `text`: the note's
    /// search text when it was prepared already.
    static func update(
        note: Note, previous: Note?, text: IndexedText? = nil, pending: PendingIndex, _ db: Database
    ) throws -> Int64? {
        // A note that did not exist has no row in the index (the common case of an import).
        let oldRowid =
            previous == nil
            ? nil
            : try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT searchRowid FROM note WHERE id = ?"),
                arguments: [note.idString])
        if let previous, let oldRowid, !note.isTrashed, previous.title == note.title,
            previous.body == note.body,
            previous.tags == note.tags, previous.modifiedAt == note.modifiedAt
        {
            return oldRowid
        }
        if let oldRowid { try remove(rowid: oldRowid, db) }
        guard !note.isTrashed else { return nil }
        let rowid = try allocateRowid(modifiedAt: note.modifiedAt.millisecondsSince1970, pending: pending, db)
        let text = text ?? IndexedText(title: note.title, body: note.body, tags: note.tags, scratch: &pending.scratch)
        try insertRow(rowid: rowid, text, pending: pending, db)
        return rowid
    }

    /// Stores one note's folded text and queues its keys for this transaction's segment.
    static func insertRow(rowid: Int64, _ text: IndexedText, pending: PendingIndex, _ db: Database) throws {
        pending.add(rowid: rowid, keys: text.keys)
        if let highest = pending.highestRowid { pending.highestRowid = max(highest, rowid) }
        if pending.keyCount >= maxPendingKeys { pending.seal(async: true) }
        try db.run(
            "INSERT INTO search_text(rowid, title, body) VALUES (?, ?, ?)",
            [rowid, String(decoding: text.title, as: UTF8.self), String(decoding: text.body, as: UTF8.self)])
    }

    static func remove(noteID: String, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: "SELECT searchRowid FROM note WHERE id = ?")
        if let rowid = try Int64.fetchOne(statement, arguments: [noteID]) {
            try remove(rowid: rowid, db)
        }
    }

    /// The text goes; the postings that name the rowid stay until their segment is merged
    /// (searches check the text).
    private static func remove(rowid: Int64, _ db: Database) throws {
        try db.run("DELETE FROM search_text WHERE rowid = ?", [rowid])
        try db.run("UPDATE note SET searchRowid = NULL WHERE searchRowid = ?", [rowid])
    }

    /// Rebuilds the index from the notes (a migration, or after a change to what is indexed).
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM search_text; DELETE FROM search_posting; DELETE FROM search_segment")
        let pending = PendingIndex()
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT searchRowid, title, body, tags FROM note WHERE searchRowid IS NOT NULL ORDER BY searchRowid")
        while let row = try rows.next() {
            let text = IndexedText(
                title: row["title"], body: row["body"], tags: NoteStore.decodeTags(row["tags"]),
                scratch: &pending.scratch)
            try insertRow(rowid: row["searchRowid"], text, pending: pending, db)
        }
        try flush(pending, db)
        try optimize(db)
    }

    // MARK: Segments

    /// Segments of one size class merge when there are this many.
    static let mergeFanout = 8

    /// Keys a transaction collects before they are sealed into a segment (a large transaction
    /// writes several), sorted on another thread: about 40 MB at the peak of sorting them.
    static let maxPendingKeys = 2_000_000

    /// Writes this transaction's documents as segments, then merges what has piled up.
    static func flush(_ pending: PendingIndex, _ db: Database) throws {
        guard !pending.isEmpty else { return }
        defer { pending.reset() }
        // The last part is small unless the transaction was large: sorted here.
        pending.seal(async: false)
        for sort in pending.takeSealed() {
            try writeSegment(try sort.get(), db)
        }
        try mergeIfNeeded(db)
    }

    /// Merges every segment into one (after a rebuild; queries then read one list per key).
    static func optimize(_ db: Database) throws {
        let ids = try Int64.fetchAll(db, sql: "SELECT id FROM search_segment ORDER BY id")
        guard !ids.isEmpty else { return }
        if ids.count == 1 {
            // One segment: rewritten only when a tenth of it is notes since edited or trashed.
            let indexed = try Int.fetchOne(db, sql: "SELECT documents FROM search_segment") ?? 0
            let live = try Int.fetchOne(db, sql: "SELECT count(*) FROM search_text") ?? 0
            guard (indexed - live) * 10 > indexed else { return }
        }
        try merge(ids, db)
    }

    /// Size class of a segment: one per factor of `mergeFanout` in documents.
    private static func sizeClass(_ documents: Int) -> Int {
        var size = max(documents, 1)
        var level = 0
        while size >= mergeFanout {
            size /= mergeFanout
            level += 1
        }
        return level
    }

    private static func mergeIfNeeded(_ db: Database) throws {
        while true {
            let rows = try Row.fetchAll(db, sql: "SELECT id, documents FROM search_segment ORDER BY id")
            var byClass: [Int: [Int64]] = [:]
            for row in rows { byClass[sizeClass(row["documents"]), default: []].append(row["id"]) }
            guard let full = byClass.keys.sorted().first(where: { byClass[$0]!.count >= mergeFanout }) else { return }
            try merge(byClass[full]!, db)
        }
    }

    private static func writeSegment(_ segment: SegmentSort.Output, _ db: Database) throws {
        guard !segment.documents.isEmpty else { return }
        try db.run(
            "INSERT INTO search_segment(documents, docs) VALUES (?, ?)",
            [segment.documents.count, SegmentDocs.encode(segment.documents)])
        let id = db.lastInsertedRowID
        for (index, key) in segment.keys.enumerated() {
            let bytes = segment.bytes[(index == 0 ? 0 : segment.ends[index - 1])..<segment.ends[index]]
            try insertPosting(segment: id, key: key, Data(bytes), db)
        }
    }

    private static func insertPosting(segment: Int64, key: UInt32, _ bytes: [UInt8], _ db: Database) throws {
        try insertPosting(segment: segment, key: key, Data(bytes), db)
    }

    private static func insertPosting(segment: Int64, key: UInt32, _ bytes: Data, _ db: Database) throws {
        try db.run("INSERT INTO search_posting(rowid, docs) VALUES (?, ?)", [segment << 25 + Int64(key), bytes])
    }

    /// Merges `ids` into one new segment of their documents that still have text.
    private static func merge(_ ids: [Int64], _ db: Database) throws {
        var tables: [[Int64]] = []
        var total = 0
        for id in ids {
            let blob = try Data.fetchOne(db, sql: "SELECT docs FROM search_segment WHERE id = ?", arguments: [id])
            let documents = blob.map(SegmentDocs.decode) ?? []
            tables.append(documents)
            total += documents.count
        }
        let isLive: (Int64) throws -> Bool
        if total > 20_000 {
            let live = Set(try Int64.fetchAll(db, sql: "SELECT rowid FROM search_text"))
            isLive = { live.contains($0) }
        } else {
            let statement = try db.cachedStatement(sql: "SELECT 1 FROM search_text WHERE rowid = ?")
            isLive = { try Bool.fetchOne(statement, arguments: [$0]) == true }
        }
        var merged: [Int64] = []
        merged.reserveCapacity(total)
        for table in tables {
            for rowid in table where try isLive(rowid) { merged.append(rowid) }
        }
        merged.sort()
        var distinct: [Int64] = []
        distinct.reserveCapacity(merged.count)
        for rowid in merged where distinct.last != rowid { distinct.append(rowid) }
        // Old document number → new one (UInt32.max: dropped). Monotonic, so a segment's
        // renumbered list stays sorted.
        let renumber: [[UInt32]] = tables.map { table in
            table.map { rowid in SegmentDocs.index(of: rowid, in: distinct).map(UInt32.init) ?? .max }
        }
        // When the segments follow one another in time and lose nothing (an import's), each
        // merged list is their lists one after another, shifted: copied, not decoded.
        var offsets: [UInt32]? = []
        var nextFree: UInt32 = 0
        for map in renumber where !map.isEmpty {
            guard let first = map.first, let last = map.last, first != .max, last != .max,
                Int(last - first) == map.count - 1, first >= nextFree
            else {
                offsets = nil
                break
            }
            nextFree = last + 1
        }
        if offsets != nil { offsets = renumber.map { $0.first ?? 0 } }
        var newID: Int64?
        if !distinct.isEmpty {
            try db.run(
                "INSERT INTO search_segment(documents, docs) VALUES (?, ?)",
                [distinct.count, SegmentDocs.encode(distinct)])
            newID = db.lastInsertedRowID
        }
        // Key ranges small enough to hold in memory: all at once for small segments, else by
        // the first byte of the key (512 ranges over both key spaces).
        let step: UInt32 = total < 5_000 ? SearchKeys.limit : 1 << 16
        var low: UInt32 = 0
        var merger = PostingMerger()
        while let newID, low < SearchKeys.limit {
            let high = low + step
            // (key, segment position, blob), in key then segment order.
            var rows: [(key: UInt32, segment: Int, blob: Data)] = []
            for (position, id) in ids.enumerated() {
                let cursor = try Row.fetchCursor(
                    db.cachedStatement(sql: "SELECT rowid, docs FROM search_posting WHERE rowid >= ? AND rowid < ?"),
                    arguments: [id << 25 + Int64(low), id << 25 + Int64(high)])
                while let row = try cursor.next() {
                    let key = UInt32(truncatingIfNeeded: (row[0] as Int64) & Int64(SearchKeys.limit - 1))
                    rows.append((key, position, row[1]))
                }
            }
            rows.sort { ($0.key, $0.segment) < ($1.key, $1.segment) }
            var start = 0
            while start < rows.count {
                var end = start
                merger.reset()
                while end < rows.count, rows[end].key == rows[start].key {
                    let segment = rows[end].segment
                    rows[end].blob.withUnsafeBytes { blob in
                        if let offsets {
                            merger.append(blob, shiftedBy: offsets[segment])
                        } else {
                            merger.add(blob, renumber: renumber[segment])
                        }
                    }
                    end += 1
                }
                if let bytes = offsets == nil ? merger.encoded() : merger.concatenation {
                    try insertPosting(segment: newID, key: rows[start].key, bytes, db)
                }
                start = end
            }
            low = high
        }
        for id in ids {
            try db.run("DELETE FROM search_posting WHERE rowid >= ? AND rowid < ?", [id << 25, (id + 1) << 25])
            try db.run("DELETE FROM search_segment WHERE id = ?", [id])
        }
    }

    // MARK: Rowids

    /// Rowids per millisecond of `modifiedAt`: notes of one millisecond take consecutive ones.
    /// (It was 256, and the 257th note of a millisecond took the next one's rowids, ranking
    /// above newer notes; an import of a zip with 2-second file dates can have that many.)
    static let slotsPerMillisecond: Int64 = 4096

    /// The first rowid of `modifiedAt`'s slots; dates beyond ±70,000 years share the last slots.
    static func baseRowid(modifiedAt: Int64) -> Int64 {
        let limit = Int64.max / slotsPerMillisecond - 1
        return min(max(modifiedAt, -limit), limit) * slotsPerMillisecond
    }

    /// Folds the stored folded forms again (sort titles, tags) after a change to `TextFolding`
    /// (a migration; the index is rebuilt after).
    /// Only rows whose fold changed are written.
    static func refold(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT id, title, sortTitle FROM note") {
            let folded = TextFolding.fold(row["title"])
            guard !folded.utf8.elementsEqual((row["sortTitle"] as String).utf8) else { continue }
            try db.execute(
                sql: "UPDATE note SET sortTitle = ? WHERE id = ?", arguments: [folded, row["id"] as String])
        }
        for row in try Row.fetchAll(db, sql: "SELECT noteID, tag, foldedTag FROM note_tag") {
            let folded = TextFolding.fold(row["tag"])
            guard !folded.utf8.elementsEqual((row["foldedTag"] as String).utf8) else { continue }
            try db.execute(
                sql: "UPDATE note_tag SET foldedTag = ? WHERE noteID = ? AND tag = ?",
                arguments: [folded, row["noteID"] as String, row["tag"] as String])
        }
    }

    /// Whether an indexed note has text whose fold v7 changed (migration v7): a scalar whose
    /// fold keeps a nonspacing mark (before v7 every one was dropped; all other text folds as
    /// before). Text without a UTF-8 lead byte of U+0300 or above (0xCC) has none, so Latin,
    /// Greek and Cyrillic notes cost one byte scan.
    static func hasTextFoldedDifferentlySinceV7(_ db: Database) throws -> Bool {
        var verdicts: [Unicode.Scalar: Bool] = [:]
        func changed(_ text: String) -> Bool {
            guard text.utf8.contains(where: { $0 >= 0xCC }) else { return false }
            for scalar in text.unicodeScalars where scalar.value >= 0x300 {
                if let verdict = verdicts[scalar] {
                    if verdict { return true }
                    continue
                }
                let verdict = TextFolding.fold(String(scalar)).unicodeScalars.contains {
                    $0.properties.generalCategory == .nonspacingMark
                }
                verdicts[scalar] = verdict
                if verdict { return true }
            }
            return false
        }
        let rows = try Row.fetchCursor(db, sql: "SELECT title, body, tags FROM note WHERE searchRowid IS NOT NULL")
        while let row = try rows.next() {
            if changed(row["title"]) || changed(row["body"]) { return true }
            if NoteStore.decodeTags(row["tags"]).contains(where: changed) { return true }
        }
        return false
    }

    /// Gives every indexed note a rowid under the current `slotsPerMillisecond`, keeping their
    /// order (a migration; the index is rebuilt after).
    static func renumber(_ db: Database) throws {
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, modifiedAt FROM note WHERE searchRowid IS NOT NULL ORDER BY modifiedAt, searchRowid")
        try db.execute(sql: "UPDATE note SET searchRowid = NULL WHERE searchRowid IS NOT NULL")
        var previous = Int64.min
        for row in rows {
            let rowid = max(baseRowid(modifiedAt: row["modifiedAt"]), previous &+ 1)
            try db.execute(
                sql: "UPDATE note SET searchRowid = ? WHERE id = ?", arguments: [rowid, row["id"] as String])
            previous = rowid
        }
    }

    /// The next free rowid of `modifiedAt`'s slots: one index lookup, however many notes share
    /// the millisecond (a probe per taken slot made an import of same-dated notes quadratic).
    /// Past its 4096 slots a millisecond spills above the highest rowid of the next second.
    ///
    /// Notes newer than every indexed one (an import, oldest first; a new edit) need no query:
    /// the transaction remembers the highest rowid (`PendingIndex.highestRowid`; an
    /// overestimate after a removal only numbers a millisecond's notes higher).
    private static func allocateRowid(modifiedAt: Int64, pending: PendingIndex, _ db: Database) throws -> Int64 {
        let base = baseRowid(modifiedAt: modifiedAt)
        let spill = base + slotsPerMillisecond
        if pending.highestRowid == nil {
            pending.highestRowid = try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM search_text") ?? Int64.min
        }
        if let top = pending.highestRowid {
            if top < base { return base }
            if top < spill - 1 { return top + 1 }
        }
        let highest = try db.cachedStatement(sql: "SELECT max(rowid) FROM search_text WHERE rowid >= ? AND rowid < ?")
        var rowid = (try Int64.fetchOne(highest, arguments: [base, spill])).map { $0 + 1 } ?? base
        if rowid >= spill {
            rowid =
                (try Int64.fetchOne(highest, arguments: [spill, spill + 1000 * slotsPerMillisecond])).map { $0 + 1 }
                ?? spill
        }
        let taken = try db.cachedStatement(sql: "SELECT 1 FROM search_text WHERE rowid = ?")
        while try Bool.fetchOne(taken, arguments: [rowid]) == true { rowid += 1 }
        return rowid
    }
}

/// A note's folded search text and its index keys (title keys in `SearchKeys.titleSpace`,
/// title, body and tag keys in the main space), computed once, possibly off the writer's
/// thread (`NoteStore.importNotes` prepares a batch while the previous one is written).
struct IndexedText: Sendable {
    let title: [UInt8]
    /// Folded body, then U+FFFF and the folded tags (one per line) when there are tags.
    let body: [UInt8]
    let keys: [UInt32]

    /// The folded title as a string (the note's sort title too).
    var foldedTitle: String { String(decoding: title, as: UTF8.self) }

    init(title: String, body: String, tags: [String], scratch: inout KeySet) {
        let title = TextFolding.foldedUTF8(title)
        var body = TextFolding.foldedUTF8(body)
        if !tags.isEmpty {
            body.append(contentsOf: SearchIndex.sentinel.utf8)
            body.append(contentsOf: TextFolding.foldedUTF8(tags.joined(separator: "\n")))
        }
        scratch.removeAll()
        title.withUnsafeBufferPointer { bytes in
            SearchKeys.collect(bytes, space: SearchKeys.titleSpace, into: &scratch)
            SearchKeys.collect(bytes, space: 0, into: &scratch)
        }
        body.withUnsafeBufferPointer { SearchKeys.collect($0, space: 0, into: &scratch) }
        self.title = title
        self.body = body
        self.keys = Array(scratch.keys)
    }
}

/// The documents (searchRowids) a write transaction indexed, with their keys, until
/// `SearchIndex.flush` writes them as segments. One per store, used on its writer only.
///
/// Every `SearchIndex.maxPendingKeys` keys are sealed and sorted on another thread
/// (`SegmentSort`) while the transaction goes on writing notes.
final class PendingIndex: @unchecked Sendable {
    private var rowids: [Int64] = []
    /// keys[i]: document i's distinct keys.
    private var keys: [[UInt32]] = []
    private(set) var keyCount = 0
    private var sealed: [BackgroundResult<SegmentSort.Output>] = []
    /// For texts indexed on the writer's thread.
    var scratch = KeySet()

    var isEmpty: Bool { rowids.isEmpty && sealed.isEmpty }
    /// The highest rowid of `search_text` in this transaction, once read (Int64.min: empty).
    var highestRowid: Int64?

    func add(rowid: Int64, keys documentKeys: [UInt32]) {
        keys.append(documentKeys)
        rowids.append(rowid)
        keyCount += documentKeys.count
    }

    /// Hands what was added so far to a sort of its own (on another thread when `async`).
    func seal(async: Bool) {
        guard !rowids.isEmpty else { return }
        let (documents, documentKeys, count) = (rowids, keys, keyCount)
        sealed.append(
            BackgroundResult(async: async) { SegmentSort.sort(rowids: documents, keys: documentKeys, keyCount: count) })
        rowids = []
        keys = []
        keyCount = 0
    }

    /// The sealed segments, in the order they were sealed; the caller writes them.
    func takeSealed() -> [BackgroundResult<SegmentSort.Output>] {
        defer { sealed = [] }
        return sealed
    }

    /// Forgets everything (the transaction ended, committed or not). A sort still running
    /// finishes on its own thread and is dropped.
    func reset() {
        rowids = []
        keys = []
        keyCount = 0
        sealed = []
        highestRowid = nil
    }
}

/// Builds one segment from its documents and their keys, off the writer's thread: the sorted
/// distinct rowids, and per key (ascending) its encoded posting list. A rowid queued twice
/// (reused inside a transaction) is one document with both key sets: more candidates, never
/// fewer.
enum SegmentSort {
    struct Output: Sendable {
        var documents: [Int64] = []
        var keys: [UInt32] = []
        /// Posting list i is bytes[ends[i - 1] ..< ends[i]] (from 0 for the first).
        var ends: [Int] = []
        var bytes: [UInt8] = []
    }

    static func sort(rowids: [Int64], keys: [[UInt32]], keyCount: Int) -> Output {
        // Imports and rebuilds come in rowid order already.
        let ascending = zip(rowids, rowids.dropFirst()).allSatisfy { $0 <= $1 }
        let order = ascending ? Array(rowids.indices) : rowids.indices.sorted { rowids[$0] < rowids[$1] }
        var output = Output()
        output.documents.reserveCapacity(rowids.count)
        var pairs = [UInt64](repeating: 0, count: keyCount)
        pairs.withUnsafeMutableBufferPointer { pairs in
            var next = 0
            for i in order {
                if output.documents.last != rowids[i] { output.documents.append(rowids[i]) }
                let number = UInt64(output.documents.count - 1)
                for key in keys[i] {
                    pairs[next] = UInt64(key) << 32 | number
                    next += 1
                }
            }
        }
        Postings.sortByKey(&pairs)
        var documents: [UInt32] = []
        var start = 0
        while start < pairs.count {
            let key = pairs[start] >> 32
            var end = start
            documents.removeAll(keepingCapacity: true)
            while end < pairs.count, pairs[end] >> 32 == key {
                let document = UInt32(truncatingIfNeeded: pairs[end])
                if documents.last != document { documents.append(document) }
                end += 1
            }
            Postings.encode(documents, into: &output.bytes)
            output.keys.append(UInt32(key))
            output.ends.append(output.bytes.count)
            start = end
        }
        return output
    }
}

/// A segment's document table: its sorted searchRowids as little-endian 64-bit integers.
enum SegmentDocs {
    static func encode(_ rowids: [Int64]) -> Data {
        rowids.map(\.littleEndian).withUnsafeBufferPointer { Data(buffer: $0) }
    }

    static func decode(_ data: Data) -> [Int64] {
        data.withUnsafeBytes { raw in
            [Int64](unsafeUninitializedCapacity: raw.count / 8) { buffer, count in
                for i in 0..<(raw.count / 8) {
                    buffer[i] = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8, as: Int64.self))
                }
                count = raw.count / 8
            }
        }
    }

    /// Position of `rowid` in the sorted `rowids`.
    static func index(of rowid: Int64, in rowids: [Int64]) -> Int? {
        let position = lowerBound(rowid, in: rowids)
        return position < rowids.count && rowids[position] == rowid ? position : nil
    }

    /// First position whose rowid is >= `rowid`.
    static func lowerBound(_ rowid: Int64, in rowids: [Int64]) -> Int {
        var low = 0
        var high = rowids.count
        while low < high {
            let mid = (low + high) / 2
            if rowids[mid] < rowid { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
