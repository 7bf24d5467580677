import Foundation
import GRDB
import NotesCore

/// A note made ready to write: everything that does not depend on the database, so that an
/// import prepares its next batch on another thread while the current one is written.
struct PreparedNote: Sendable {
    /// The note, checked storable.
    let note: Note
    let fields: RevisionFields
    let canonicalFields: [UInt8]
    /// The fields as the note's head revision stores them, the body cut out (`HeadBody`); nil
    /// when they are stored whole.
    let headFields: (text: String, offset: Int)?
    /// Computed ahead (`init(ahead:…)`): the note's revision if it has no previous head, and
    /// its search text and keys (nil in the trash). Else both are made when written.
    private(set) var firstRevision: Revision?
    private(set) var text: IndexedText?

    init(_ note: Note) throws {
        try NoteStore.checkStorable(note)
        self.note = note
        fields = RevisionFields(note: note)
        let (canonical, body) = fields.canonicalForm()
        canonicalFields = canonical
        headFields = HeadBody.elide(canonical, bodyContents: body)
    }

    /// Also the first revision and the search text, all of it off the writer's thread.
    init(ahead note: Note, device: String, scratch: inout KeySet, folder: inout TextFolding.Folder) throws {
        try self.init(note)
        firstRevision = Revision(
            recordID: note.id, parents: [], fields: fields, canonicalFields: canonicalFields, hlc: HLC(packed: 0),
            device: device)
        if !note.isTrashed {
            text = IndexedText(
                title: note.title, body: note.body, tags: note.tags, scratch: &scratch, folder: &folder)
        }
    }

    /// The note's revision after `parents` (the one made ahead when there are none), stamped.
    func revision(parents: [String], hlc: HLC, device: String) -> Revision {
        if parents.isEmpty, var revision = firstRevision {
            revision.hlc = hlc
            return revision
        }
        return Revision(
            recordID: note.id, parents: parents, fields: fields, canonicalFields: canonicalFields, hlc: hlc,
            device: device)
    }
}

/// A note's fields as a preview remembers them: the length and hash of their canonical bytes.
private struct FieldsDigest: Equatable {
    let count: Int
    let hash: Int

    init(_ fields: RevisionFields) {
        let bytes = fields.canonicalBytes
        count = bytes.count
        hash = bytes.withUnsafeBytes { raw in
            var hasher = Hasher()
            hasher.combine(bytes: raw)
            return hasher.finalize()
        }
    }
}

extension NoteStore {
    /// Imports notes with their ids and dates; a note whose id exists gets a new revision if it
    /// differs. Every note is checked first (nothing is written when one cannot be stored); then
    /// they are written oldest first, in batches (`importNotes(count:…)`). A note in
    /// `keepingAttachments` (its source said nothing about attachments) keeps the attachments
    /// it has here.
    public func importNotes(_ notes: [Note], keepingAttachments: Set<UUID> = [], batchSize: Int = 10_000) throws -> (
        created: Int, updated: Int, unchanged: Int
    ) {
        // Notes that cannot be stored fail the import before anything is written.
        for note in notes { try Self.checkImportable(note) }
        // Oldest first: search rowids then ascend, and the index's segments follow one another.
        let sorted = notes.sorted { $0.modifiedAt < $1.modifiedAt }
        return try importNotes(count: sorted.count, keepingAttachments: keepingAttachments, batchSize: batchSize) {
            Array(sorted[$0])
        }
    }

    /// Imports `count` notes that `load` gives a range at a time (positions in the order they
    /// are written: oldest first, so that search rowids ascend), in transactions of up to
    /// `batchSize` notes, each read and prepared `chunkSize` notes at a time: only a chunk
    /// read, one prepared and one being written are held, so memory does not grow with the
    /// import or the batch. Each chunk is read and prepared (`PreparedNote`: validation,
    /// revision ids, folded search text and keys, its search segment sorted) on another thread
    /// while the previous one is written. The caller checks every note with `checkImportable`
    /// before the first batch; a note of a batch that fails the check (or a `load` that
    /// throws) fails the import there, with the batches before it written, as after a kill:
    /// importing again finishes it. A note given twice is written over the first.
    ///
    /// A batch is a transaction, and each transaction writes every page it changed to the WAL
    /// (and the checkpoint writes them again into the database): the notes' own pages are
    /// new, but the indexes keyed by id (note, revision, outbox, tags, change sequence) take
    /// each batch's notes all over their pages. At 100k notes, batches of 1,000 wrote 5.0 GB
    /// for a 436 MB store; batches of 10,000, 1.7 GB (Benchmarks/README, issue 27). Into a store
    /// that holds no note, those indexes (but the constraints') and the change sequence's insert
    /// trigger are dropped before the first batch and built once after the last
    /// (`DeferredIndexes`); a kill in between leaves a marker, and the next open builds them
    /// before anything else.
    public func importNotes(
        count: Int, keepingAttachments: Set<UUID> = [], batchSize: Int = 10_000, chunkSize: Int = 1_000,
        load: @escaping @Sendable (Range<Int>) throws -> [Note]
    ) throws -> (created: Int, updated: Int, unchanged: Int) {
        let batches = Self.batchRanges(count: count, batchSize: batchSize).map {
            Self.chunks(of: $0, size: min(chunkSize, batchSize))
        }
        // Into an empty store, the secondary indexes are built once, at the end (DeferredIndexes).
        let deferred = try !batches.isEmpty && deferIndexesIfEmpty()
        let counts: (created: Int, updated: Int, unchanged: Int)
        do {
            counts = try writeBatches(batches, keepingAttachments: keepingAttachments, load: load)
        } catch {
            // The batches written stay, as after a kill, in a store with every index (should
            // building them fail too, the next open builds them: the marker is still there).
            if deferred { try? restoreDeferredIndexes() }
            throw error
        }
        if deferred { try restoreDeferredIndexes() }
        // The import is done when its data is in the database file, as it was when every
        // commit checkpointed.
        if !batches.isEmpty { finishCheckpoints() }
        return counts
    }

    /// Drops the secondary indexes (`DeferredIndexes.drop`) when the store holds no note;
    /// returns whether it did.
    private func deferIndexesIfEmpty() throws -> Bool {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM note)") == true else { return false }
            try DeferredIndexes.drop(db)
            return true
        }
    }

    /// The batches of `importNotes(count:…)`, each a transaction of its chunks.
    private func writeBatches(
        _ batches: [[Range<Int>]], keepingAttachments: Set<UUID>,
        load: @escaping @Sendable (Range<Int>) throws -> [Note]
    ) throws -> (created: Int, updated: Int, unchanged: Int) {
        var counts = (created: 0, updated: 0, unchanged: 0)
        let device = deviceID
        let prepare = { @Sendable (range: Range<Int>) in
            BackgroundResult { try Self.prepare(try load(range), device: device) }
        }
        // The chunk to write next, prepared while the one before it was written.
        var next: BackgroundResult<([PreparedNote], SegmentSort.Ahead)>?
        for (index, batch) in batches.enumerated() {
            let nextBatch = batches.dropFirst(index + 1).first
            try bulkWrite { db in
                // One clock for the batch, persisted once: two statements per note fewer.
                var clock = try hybridLogicalClock(db)
                // A note given twice is written over the first (it exists once the first is written).
                var known = Set<String>()
                for (position, range) in batch.enumerated() {
                    let (chunk, ahead) = try (next ?? prepare(range)).get()
                    // The chunk after this one (the next batch's first after the last) is read and
                    // prepared while this one is written.
                    let following = position + 1 < batch.count ? batch[position + 1] : nextBatch?.first
                    next = following.map(prepare)
                    // Its postings were sorted with it, off this thread (used when every note is written).
                    pendingIndex.ahead = ahead
                    known.formUnion(try Self.existingIDs(chunk.map(\.note.idString), db))
                    for var prepared in chunk {
                        let existing =
                            known.contains(prepared.note.idString) ? try Self.fetchNote(db, id: prepared.note.id) : nil
                        if let existing, keepingAttachments.contains(existing.id),
                            existing.attachments != prepared.note.attachments
                        {
                            var note = prepared.note
                            note.attachments = existing.attachments
                            prepared = try PreparedNote(note)
                        }
                        if let existing, RevisionFields(note: existing) == prepared.fields {
                            counts.unchanged += 1
                            continue
                        }
                        let stamp = clock.tick(now: self.clock().millisecondsSince1970)
                        try save(prepared.note, previous: existing, stamp: stamp, prepared: prepared, db)
                        if existing == nil { counts.created += 1 } else { counts.updated += 1 }
                        known.insert(prepared.note.idString)
                    }
                    // The chunk's segment, now: a batch holds one chunk's postings at a time.
                    try SearchIndex.flush(pendingIndex, db)
                }
                try persist(clock.last, db)
            }
        }
        return counts
    }

    /// `range` cut into parts of `size` positions (the last one shorter).
    static func chunks(of range: Range<Int>, size: Int) -> [Range<Int>] {
        stride(from: range.lowerBound, to: range.upperBound, by: max(size, 1)).map {
            $0..<min($0 + max(size, 1), range.upperBound)
        }
    }

    /// The positions of each batch: the first two smaller, so that writing starts while the
    /// next is prepared.
    static func batchRanges(count: Int, batchSize: Int) -> [Range<Int>] {
        var batches: [Range<Int>] = []
        var start = 0
        for size in [batchSize / 10, batchSize / 3] where start < count {
            let end = min(start + max(size, 1), count)
            batches.append(start..<end)
            start = end
        }
        return batches + chunks(of: start..<count, size: batchSize)
    }

    /// What `importNotes` would do with `notes`, without writing anything (`import --dry-run`):
    /// the same checks (throws where it would), and per note new, updated or unchanged.
    public func importPreview(_ notes: [Note], keepingAttachments: Set<UUID> = []) throws -> (
        created: Int, updated: Int, unchanged: Int
    ) {
        for note in notes { try Self.checkImportable(note) }
        let sorted = notes.sorted { $0.modifiedAt < $1.modifiedAt }
        return try importPreview(count: sorted.count, keepingAttachments: keepingAttachments) { Array(sorted[$0]) }
    }

    /// What `importNotes(count:…)` would do with the notes `load` gives, a batch at a time.
    public func importPreview(
        count: Int, keepingAttachments: Set<UUID> = [], batchSize: Int = 1_000,
        load: (Range<Int>) throws -> [Note]
    ) throws -> (created: Int, updated: Int, unchanged: Int) {
        var counts = (created: 0, updated: 0, unchanged: 0)
        // A note given twice is compared with the earlier one, as the import writes it: by a
        // digest of its fields, so that a preview holds no text (a collision of the 64-bit hash
        // and the length could only miscount an "unchanged" in the summary of a dry run).
        var seen: [UUID: FieldsDigest] = [:]
        for range in Self.batchRanges(count: count, batchSize: batchSize) {
            let notes = try load(range)
            for note in notes { try Self.checkImportable(note) }
            try read { db in
                let known = try Self.existingIDs(notes.map(\.idString), db)
                for note in notes {
                    var note = note
                    note.title = Self.effectiveTitle(note.title, body: note.body)
                    let found = known.contains(note.idString) ? try Self.fetchNote(db, id: note.id) : nil
                    if let found, keepingAttachments.contains(note.id) { note.attachments = found.attachments }
                    let fields = FieldsDigest(RevisionFields(note: note))
                    let existing = seen[note.id] ?? found.map { FieldsDigest(RevisionFields(note: $0)) }
                    if existing == nil {
                        counts.created += 1
                    } else if existing == fields {
                        counts.unchanged += 1
                    } else {
                        counts.updated += 1
                    }
                    seen[note.id] = fields
                }
            }
        }
        return counts
    }

    /// Which of `ids` have a note row: one query per 500 ids instead of a read per note.
    private static func existingIDs(_ ids: [String], _ db: Database) throws -> Set<String> {
        var found = Set<String>()
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = ids[start..<min(start + 500, ids.count)]
            let marks = chunk.map { _ in "?" }.joined(separator: ",")
            found.formUnion(
                try String.fetchAll(
                    db, sql: "SELECT id FROM note WHERE id IN (\(marks))", arguments: StatementArguments(Array(chunk))))
        }
        return found
    }

    /// Throws when the note cannot be imported: an invalid notebook id, or text SQLite would
    /// cut short (a NUL). An import checks every note with this before writing the first.
    public static func checkImportable(_ note: Note) throws {
        guard isValidZone(note.zone) else {
            throw StoreError(
                .invalidInput,
                "note \(note.idString): notebook \"\(TerminalSafeText.sanitize(note.zone))\" is not valid")
        }
        try checkStorable(note)
    }

    /// The batch made ready to write, and its search segment sorted as if every note with
    /// search text is written, in this order.
    private static func prepare(_ batch: [Note], device: String) throws -> ([PreparedNote], SegmentSort.Ahead) {
        var scratch = KeySet()
        var folder = TextFolding.Folder()
        let prepared = try batch.map { note in
            try checkImportable(note)
            var note = note
            note.title = effectiveTitle(note.title, body: note.body)
            return try PreparedNote(ahead: note, device: device, scratch: &scratch, folder: &folder)
        }
        return (prepared, SegmentSort.Ahead(keys: prepared.compactMap(\.text?.keys)))
    }
}
