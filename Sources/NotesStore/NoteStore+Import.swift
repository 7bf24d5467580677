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
    let canonicalFieldsText: String
    /// Computed ahead (`init(ahead:…)`): the note's revision if it has no previous head, and
    /// its search text and keys (nil in the trash). Else both are made when written.
    private(set) var firstRevision: Revision?
    private(set) var text: IndexedText?

    init(_ note: Note) throws {
        try NoteStore.checkStorable(note)
        self.note = note
        fields = RevisionFields(note: note)
        canonicalFields = fields.json.canonicalBytes
        canonicalFieldsText = String(decoding: canonicalFields, as: UTF8.self)
    }

    /// Also the first revision and the search text, all of it off the writer's thread.
    init(ahead note: Note, device: String, scratch: inout KeySet) throws {
        try self.init(note)
        firstRevision = Revision(
            recordID: note.id, parents: [], fields: fields, canonicalFields: canonicalFields, hlc: HLC(packed: 0),
            device: device)
        if !note.isTrashed {
            text = IndexedText(title: note.title, body: note.body, tags: note.tags, scratch: &scratch)
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

extension NoteStore {
    /// Imports notes with their ids and dates; a note whose id exists gets a new revision if it
    /// differs. Every note is checked first (nothing is written when one cannot be stored); then
    /// transactions of up to `batchSize` notes, oldest first; each batch is prepared
    /// (`PreparedNote`: validation, revision ids, folded search text and keys) on another
    /// thread while the previous one is written. A note in `keepingAttachments` (its source
    /// said nothing about attachments) keeps the attachments it has here.
    public func importNotes(_ notes: [Note], keepingAttachments: Set<UUID> = [], batchSize: Int = 10_000) throws -> (
        created: Int, updated: Int, unchanged: Int
    ) {
        var counts = (created: 0, updated: 0, unchanged: 0)
        // Notes that cannot be stored fail the import before anything is written.
        try Self.checkImportable(notes)
        // Oldest first: search rowids then ascend, and the search text grows at its end.
        let notes = notes.sorted { $0.modifiedAt < $1.modifiedAt }
        // The first batches are smaller, so that writing starts while the next is prepared.
        var batches: [[Note]] = []
        var start = 0
        let sizes =
            [batchSize / 10, batchSize / 3] + Array(repeating: batchSize, count: notes.count / max(batchSize, 1) + 1)
        for size in sizes where start < notes.count {
            let end = min(start + max(size, 1), notes.count)
            batches.append(Array(notes[start..<end]))
            start = end
        }
        let device = deviceID
        let prepare = { @Sendable (batch: [Note]) in
            BackgroundResult { try Self.prepare(batch, device: device) }
        }
        var next = batches.first.map(prepare)
        for index in batches.indices {
            // `next` is the batch at `index`, prepared while the one before was written.
            guard let batch = try next?.get() else { break }
            next = index + 1 < batches.count ? prepare(batches[index + 1]) : nil
            try bulkWrite { db in
                // One clock for the batch, persisted once: two statements per note fewer.
                var clock = try hybridLogicalClock(db)
                // A note given twice is written over the first (it exists once the first is written).
                var known = try Self.existingIDs(batch.map(\.note.idString), db)
                for var prepared in batch {
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
                try persist(clock.last, db)
            }
        }
        // The import is done when its data is in the database file, as it was when every
        // commit checkpointed.
        if batches.count > 0 { finishCheckpoints() }
        return counts
    }

    /// What `importNotes` would do with `notes`, without writing anything (`import --dry-run`):
    /// the same checks (throws where it would), and per note new, updated or unchanged.
    public func importPreview(_ notes: [Note], keepingAttachments: Set<UUID> = []) throws -> (
        created: Int, updated: Int, unchanged: Int
    ) {
        try Self.checkImportable(notes)
        return try read { db in
            var counts = (created: 0, updated: 0, unchanged: 0)
            let known = try Self.existingIDs(notes.map(\.idString), db)
            // A note given twice is compared with the earlier one, as the import writes it.
            var seen: [UUID: RevisionFields] = [:]
            for note in notes.sorted(by: { $0.modifiedAt < $1.modifiedAt }) {
                var note = note
                note.title = Self.effectiveTitle(note.title, body: note.body)
                let found = known.contains(note.idString) ? try Self.fetchNote(db, id: note.id) : nil
                if let found, keepingAttachments.contains(note.id) { note.attachments = found.attachments }
                let fields = RevisionFields(note: note)
                let existing = seen[note.id] ?? found.map(RevisionFields.init)
                if existing == nil {
                    counts.created += 1
                } else if existing == fields {
                    counts.unchanged += 1
                } else {
                    counts.updated += 1
                }
                seen[note.id] = fields
            }
            return counts
        }
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

    /// Every note storable.
    private static func checkImportable(_ notes: [Note]) throws {
        for note in notes { try checkImportable(note) }
    }

    private static func checkImportable(_ note: Note) throws {
        guard isValidZone(note.zone) else {
            throw StoreError(
                .invalidInput,
                "note \(note.idString): notebook \"\(TerminalSafeText.sanitize(note.zone))\" is not valid")
        }
        try checkStorable(note)
    }

    private static func prepare(_ batch: [Note], device: String) throws -> [PreparedNote] {
        var scratch = KeySet()
        return try batch.map { note in
            var note = note
            note.title = effectiveTitle(note.title, body: note.body)
            return try PreparedNote(ahead: note, device: device, scratch: &scratch)
        }
    }
}
