import Foundation
import GRDB
import NotesTestSupport
import Testing

@testable import NotesCore
@testable import NotesStore

/// A note's head revision stored without the body its note row holds (`HeadBody`, issue 27):
/// every revision still reads byte for byte as it was stored, so its id (the hash of those
/// bytes) and sync are unchanged.
struct HeadBodyTests {
    /// Bodies that the canonical encoder escapes, and one that looks like the key itself.
    static let awkwardBodies = [
        "", "plain", "quote \" and backslash \\ and slash /", "tab\tnew\nline\rcr", "\u{01}\u{1F}\u{7F}",
        "é 😀 \u{2028} 日本語", #""body":"x","zone":"y""#, "\\\"", String(repeating: "long ", count: 500),
    ]

    @Test func elidedFieldsSpliceBackByteForByte() throws {
        for body in Self.awkwardBodies {
            let note = Note(
                title: #"a "body":"title""#, body: body, tags: ["t"], createdAt: Date(timeIntervalSince1970: 1),
                modifiedAt: Date(timeIntervalSince1970: 2))
            let whole = RevisionFields(note: note).json.canonicalBytes
            let (text, offset) = try #require(HeadBody.elide(whole, body: body))
            #expect(text.utf8.count == whole.count - HeadBody.escaped(body).count)
            #expect(try HeadBody.splice(text, at: offset, body: body).utf8.elementsEqual(whole))
            #expect(HeadBody.elide(whole, body: body + "x") == nil)
        }
    }

    /// Cutting the body where the fields' writer put it gives what searching for it gives.
    @Test func theBodyCutWhereItWasWrittenIsTheBodyFoundThere() throws {
        for body in Self.awkwardBodies {
            let fields = RevisionFields(
                note: Note(
                    title: #"a "body":"title""#, body: body, tags: ["t"], createdAt: Date(timeIntervalSince1970: 1),
                    modifiedAt: Date(timeIntervalSince1970: 2),
                    attachments: [Attachment(name: "a", size: 1, sha256: "00")]))
            let (whole, contents) = fields.canonicalForm()
            let found = try #require(HeadBody.elide(whole, body: body))
            let cut = HeadBody.elide(whole, bodyContents: contents)
            #expect(cut.text == found.text && cut.offset == found.offset)
            #expect(try HeadBody.splice(cut.text, at: cut.offset, body: body).utf8.elementsEqual(whole))
        }
    }

    /// An elided head read as a revision (what a publish sends) has the fields of its text
    /// spliced whole, for every awkward body: its body set in is the note's, not re-parsed.
    @Test func anElidedHeadReadsAsTheFieldsOfItsWholeText() throws {
        let t = try TestStore()
        for body in Self.awkwardBodies {
            let note = try t.store.create(title: #"a "body":"title""#, body: body, tags: ["t"], zone: "work")
            try t.store.read { db in
                let row = try #require(
                    try Row.fetchOne(db, sql: "SELECT * FROM revision WHERE id = ?", arguments: [note.headRev]))
                #expect(row["bodyAt"] as Int? != nil, "the head is stored elided")
                let revision = try NoteStore.revision(from: row, db)
                let whole = try #require(try NoteStore.fieldsText(of: row, db))
                #expect(revision.fields?.body == body)
                #expect(revision.fields?.json.canonicalBytes == Array(whole.utf8), "\(body.debugDescription)")
                #expect(revision.id == note.headRev)
            }
        }
    }

    /// The stored head holds no copy of the body, and `json_extract` still reads its zone.
    @Test func theHeadRevisionDoesNotStoreTheBodyTwice() throws {
        let t = try TestStore()
        let body = String(repeating: "a line of the body\n", count: 100)
        let note = try t.store.create(title: "t", body: body, zone: "work")
        let row = try #require(
            try t.store.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT length(fields) AS n, bodyAt, json_extract(fields, '$.zone') AS zone FROM revision")
            })
        #expect((row["n"] as Int) < 200)
        #expect((row["bodyAt"] as Int?) != nil)
        #expect(row["zone"] == "work")
        #expect(try t.store.history(note.id).first?.fields?.body == body)
    }

    /// A new device's first sync stores each received head already without its body, as an
    /// import does (cutting it out afterwards left the pages of `revision` mostly empty), and
    /// every revision reads back byte for byte; a record whose root and edit arrive together,
    /// and one edited after its root arrived, keep the usual path.
    @Test func aFirstSyncStoresItsHeadsWithoutTheirBodies() throws {
        let a = try TestStore()
        let b = try TestStore()
        var notes: [Note] = []
        for i in 0..<300 {
            notes.append(
                try a.store.create(title: "note \(i)", body: String(repeating: "line \(i) of text\n", count: 20)))
        }
        let edited = try a.store.update(notes[0].id) { $0.body += "an edit\n" }
        let all = try a.store.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM revision ORDER BY hlc, id").map {
                try NoteStore.revision(from: $0, db)
            }
        }
        _ = try b.store.applyFetchedRevisions(all, engineState: "one", resolve: SyncApplyTests.noMerge)
        try b.store.read { db in
            let heads = try Row.fetchAll(
                db,
                sql: """
                    SELECT r.bodyAt, length(r.fields) AS stored, length(n.body) AS body FROM note n
                    JOIN revision r ON r.id = n.headRev
                    """)
            #expect(heads.count == 300)
            for head in heads {
                #expect((head["bodyAt"] as Int?) != nil)
                #expect((head["stored"] as Int) < (head["body"] as Int))
            }
        }
        // The leaf pages of `revision` are full, not left with the room each body took (dbstat; the
        // root, an interior page of a few pointers, is mostly empty whatever the rows).
        let (unused, size) = try b.store.read { db in
            let row = try #require(
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT sum(unused) AS u, sum(pgsize) AS s FROM dbstat
                        WHERE name = 'revision' AND pagetype = 'leaf'
                        """))
            return (row["u"] as Int, row["s"] as Int)
        }
        #expect(unused * 4 < size, "\(unused) of \(size) bytes of revision's pages unused")
        #expect(try b.store.note(edited.id)?.body == edited.body)
        #expect(try b.store.history(notes[1].id).map(\.id) == a.store.history(notes[1].id).map(\.id))
        // An edit made on A after B received the root: B's old head is written whole again.
        let later = try a.store.update(notes[1].id) { $0.body = "changed" }
        let newest = try #require(try a.store.history(notes[1].id).first)
        _ = try b.store.applyFetchedRevisions([newest], engineState: "two", resolve: SyncApplyTests.noMerge)
        #expect(try b.store.note(later.id)?.body == "changed")
        try Self.check([a, b], model: ModelStore())
    }

    /// Rows written by an older build (fields whole, `bodyAt` NULL) read the same; the next write
    /// of the note stores its new head elided and keeps the old one whole.
    @Test func revisionsStoredWholeByAnOlderBuildStillRead() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "t", body: "first \"body\"")
        let before = try t.store.history(note.id)
        try t.store.write { db in
            for row in try Row.fetchAll(db, sql: "SELECT * FROM revision") {
                try db.execute(
                    sql: "UPDATE revision SET fields = ?, bodyAt = NULL WHERE id = ?",
                    arguments: [try NoteStore.fieldsText(of: row, db), row["id"] as String])
            }
        }
        #expect(try t.store.history(note.id) == before)
        _ = try t.store.update(note.id) { $0.body = "second" }
        let history = try t.store.history(note.id)
        #expect(history.map { $0.fields?.body } == ["second", "first \"body\""])
        try Self.check([t], model: ModelStore())
    }

    /// Random edits, moves, trash and purge on three devices, and sync arrivals in any order
    /// (merges, conflicts left to the user and resolved, supersede), checked after every step:
    /// every stored revision's fields, read back, are byte for byte the canonical fields its id
    /// hashes and what the model first saw under that id; no device loses a revision; only a
    /// note's head is elided, and every note row's body is its head's.
    @Test func randomHistoriesKeepEveryRevisionByteForByte() throws {
        let seed = SeededRandom.seed(default: 27)
        print(
            "HeadBodyTests.randomHistoriesKeepEveryRevisionByteForByte seed: \(seed) (CLOUDNOTES_SEED=\(seed) replays it)"
        )
        var random = SeededRandom(seed: seed)
        let devices = try (0..<3).map { _ in try TestStore() }
        var model = ModelStore()
        var log: [String] = []
        for step in 0..<70 {
            let device = random.below(devices.count)
            let t = devices[device]
            t.advance(1)
            let notes = try t.store.read { db in try String.fetchAll(db, sql: "SELECT id FROM note ORDER BY id") }
                .compactMap(UUID.init(uuidString:))
            let note = notes.isEmpty ? nil : notes[random.below(notes.count)]
            let op = random.below(100)
            var superseded = false
            switch (op, note) {
            case (0..<12, _), (_, nil):
                _ = try t.store.create(
                    title: Self.text(&random), body: Self.text(&random), zone: random.below(3) == 0 ? "work" : "default"
                )
                log.append("\(step): create on \(device)")
            case (12..<40, let id?):
                let body = Self.text(&random)
                _ = try t.store.update(id) { $0.body = random.below(3) == 0 ? $0.body + body : body }
                log.append("\(step): edit body on \(device)")
            case (40..<48, let id?):
                let title = Self.text(&random)
                let favorite = random.below(2) == 0
                _ = try t.store.update(id) {
                    $0.title = title
                    $0.isFavorite = favorite
                    $0.tags = [title]
                }
                log.append("\(step): edit title on \(device)")
            case (48..<53, let id?):
                let zone = random.below(2) == 0 ? "work" : "default"
                _ = try t.store.update(id) { $0.zone = zone }
                log.append("\(step): move on \(device)")
            case (53..<59, let id?):
                _ = try random.below(2) == 0 ? t.store.trash(id) : t.store.restore(id)
                log.append("\(step): trash or restore on \(device)")
            case (59..<62, let id?):
                try t.store.purge(id)
                log.append("\(step): purge on \(device)")
            case (62..<88, _):
                let other = (device + 1 + random.below(devices.count - 1)) % devices.count
                try Self.sync(from: devices[other], to: t, &random)
                log.append("\(step): sync \(other) -> \(device)")
            case (88..<94, _):
                let conflicted = try t.store.conflictedNotes()
                if let flagged = conflicted.first {
                    let choice = ConflictChoice.allCases[random.below(ConflictChoice.allCases.count)]
                    _ = try t.store.resolveConflict(flagged.id, keep: choice)
                }
                log.append("\(step): resolve \(conflicted.count) on \(device)")
            case (94..<97, let id?):
                let limit = 20 + random.below(40)
                superseded =
                    try t.store.supersedeUnpublishable(id) { ($0.fields?.body.utf8.count ?? 0) <= limit } != nil
                log.append("\(step): supersede on \(device): \(superseded)")
            default:
                for zone in ["default", "work"] {
                    for revision in try t.store.snapshotRevisions(zone: zone) { try model.see(revision, device) }
                }
                log.append("\(step): snapshots on \(device)")
            }
            do {
                try Self.check(devices, model: model, allowingLoss: superseded ? device : nil)
                model.remember(try devices.map(Self.revisionIDs))
            } catch {
                Issue.record(
                    "seed \(seed) (CLOUDNOTES_SEED=\(seed) replays it): \(error)\n\(log.joined(separator: "\n"))")
                return
            }
        }
        let elided = try devices.map { t in
            try t.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM revision WHERE bodyAt IS NOT NULL")
            }
        }
        #expect(elided.allSatisfy { ($0 ?? 0) > 0 })
    }

    /// What the random histories guard against: a note row whose body changes without its
    /// elided head written whole first leaves that revision unreadable (its id no longer
    /// matches), and the check says so.
    @Test func aBodyChangedBehindTheHeadsBackIsCaught() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "t", body: "one")
        try t.store.write { db in
            try db.execute(sql: "UPDATE note SET body = 'two' WHERE id = ?", arguments: [note.idString])
        }
        #expect(throws: Failure.self) { try Self.check([t], model: ModelStore()) }
    }

    // MARK: - The model and the checks

    /// What the model holds: every revision's canonical fields as first seen (whole), and each
    /// device's revision ids after the last step.
    struct ModelStore {
        var fields: [String: String] = [:]
        var ids: [Set<String>] = []

        mutating func see(_ revision: Revision, _ device: Int) throws {
            let text = revision.fields.map { $0.json.canonicalString }
            if let text, let known = fields[revision.id], known != text {
                throw Failure("device \(device): revision \(revision.id) reads \(text), first \(known)")
            }
            if let text { fields[revision.id] = text }
        }

        mutating func remember(_ ids: [Set<String>]) { self.ids = ids }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func revisionIDs(_ t: TestStore) throws -> Set<String> {
        Set(try t.store.read { db in try String.fetchAll(db, sql: "SELECT id FROM revision") })
    }

    static func check(_ devices: [TestStore], model: ModelStore, allowingLoss lossy: Int? = nil) throws {
        var model = model
        for (index, t) in devices.enumerated() {
            try t.store.read { db in
                for row in try Row.fetchAll(db, sql: "SELECT * FROM revision") {
                    let id: String = row["id"]
                    let revision = try NoteStore.revision(from: row, db)
                    let text = try NoteStore.fieldsText(of: row, db)
                    let hashed = Revision.computeID(
                        recordID: revision.recordID, parents: revision.parents, fieldsJSON: text.map { Array($0.utf8) })
                    guard hashed == id else { throw Failure("device \(index): revision \(id) reads \(text ?? "nil")") }
                    // Its fields, read with the note's body set in, are the fields of that text.
                    guard revision.id == id, revision.fields?.json.canonicalBytes == text.map({ Array($0.utf8) }) else {
                        throw Failure("device \(index): revision \(id)'s fields are not those of \(text ?? "nil")")
                    }
                    if let text, let known = model.fields[id], known != text {
                        throw Failure("device \(index): revision \(id) reads \(text), first \(known)")
                    }
                    if let text { model.fields[id] = text }
                    if (row["bodyAt"] as Int?) != nil {
                        let head = try String.fetchOne(
                            db, sql: "SELECT headRev FROM note WHERE id = ?", arguments: [row["recordID"] as String])
                        guard head == id else {
                            throw Failure("device \(index): \(id) is elided but not a note's head")
                        }
                    }
                }
                for row in try Row.fetchAll(db, sql: "SELECT id, body, headRev FROM note") {
                    let head = try Row.fetchOne(
                        db, sql: "SELECT * FROM revision WHERE id = ?", arguments: [row["headRev"] as String?]
                    ).map { try NoteStore.revision(from: $0, db) }
                    guard let head, head.fields?.body == row["body"] else {
                        throw Failure("device \(index): note \(row["id"] as String) is not its head's body")
                    }
                }
            }
            let now = try revisionIDs(t)
            if index != lossy, index < model.ids.count, !model.ids[index].isSubset(of: now) {
                throw Failure("device \(index) lost revisions \(model.ids[index].subtracting(now))")
            }
        }
    }

    /// Every revision `from` holds, delivered to `to` in a random order and in random batches
    /// (parents may arrive after their children: the causal buffer).
    static func sync(from: TestStore, to: TestStore, _ random: inout SeededRandom) throws {
        var revisions = try from.store.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM revision ORDER BY hlc, id").map {
                try NoteStore.revision(from: $0, db)
            }
        }
        if random.below(2) == 0 {
            for i in revisions.indices.reversed() where i > 0 { revisions.swapAt(i, random.below(i + 1)) }
        }
        let askUser = random.below(3) == 0
        while !revisions.isEmpty {
            let batch = Array(revisions.prefix(1 + random.below(revisions.count)))
            revisions.removeFirst(batch.count)
            _ = try to.store.applyFetchedRevisions(batch, engineState: "state") { heads, _ in
                askUser ? (nil, true) : Self.merge(heads)
            }
        }
    }

    /// A deterministic merge: the latest head's fields with every head's body, one after the
    /// other (so the merged body is new), parents every head.
    static func merge(_ heads: [Revision]) -> (merged: Revision?, conflict: Bool) {
        guard let latest = heads.last(where: { $0.fields != nil }), var fields = latest.fields else {
            return (nil, false)
        }
        fields.body = heads.compactMap(\.fields?.body).joined(separator: "\n")
        let merged = Revision(
            recordID: latest.recordID, parents: heads.map(\.id), fields: fields,
            hlc: heads.map(\.hlc).max() ?? latest.hlc, device: "merge")
        return (merged, false)
    }

    static let pieces = [
        "a", "word", " ", "\n", "\"", "\\", "\t", "\u{01}", "é", "😀", "\u{2028}", #""body":""#, "<", "/", "\r\n",
    ]

    static func text(_ random: inout SeededRandom) -> String {
        (0..<random.below(12)).map { _ in pieces[random.below(pieces.count)] }.joined()
    }
}

extension NoteStore {
    /// A revision row's canonical fields text as stored before elision (nil: a tombstone): the
    /// tests' reading of what the store holds, byte for byte (the store reads fields by
    /// `revisionFields(of:_:)`).
    static func fieldsText(of row: Row, _ db: Database) throws -> String? {
        guard let text = row["fields"] as String? else { return nil }
        guard let offset = row["bodyAt"] as Int? else { return text }
        return try HeadBody.splice(text, at: offset, body: headBody(of: row, db))
    }
}

/// A note's tags are stored as a JSON array; the plain ones are split without the JSON parse,
/// to the same list.
@Suite struct StoredTagsTests {
    @Test func plainTagsReadAsTheJSONParseReadsThem() throws {
        let seed = SeededRandom.seed(default: 20_261_130)
        var random = SeededRandom(seed: seed)
        let alphabet: [Unicode.Scalar] = ["a", "b", "é", "東", ",", " ", "\"", "\\", "[", "]", "\n", "\u{1}", "😀", "-"]
        var plain = 0
        for _ in 0..<3_000 {
            let tags = (0..<random.below(4)).map { _ in random.string(from: alphabet, count: random.below(6)) }
            var stored = JSONValue.array(tags.map(JSONValue.string)).canonicalString
            #expect(NoteStore.decodeTags(stored) == tags, "\(stored) (CLOUDNOTES_SEED=\(seed))")
            if NoteStore.plainTags(stored) != nil { plain += 1 }
            // And damaged text: a byte left out, or one of the alphabet put in.
            var scalars = Array(stored.unicodeScalars)
            if !scalars.isEmpty, random.below(2) == 0 {
                scalars.remove(at: random.below(scalars.count))
            } else {
                scalars.insert(alphabet[random.below(alphabet.count)], at: random.below(scalars.count + 1))
            }
            stored = String(String.UnicodeScalarView(scalars))
            let parsed = (try? JSONValue(parsing: Data(stored.utf8)))?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(NoteStore.decodeTags(stored) == parsed, "\(stored) (CLOUDNOTES_SEED=\(seed))")
            #expect(folded(stored) == foldedParsed(stored), "\(stored) (CLOUDNOTES_SEED=\(seed))")
        }
        #expect(plain > 300, "stored tags take the plain path")
        for text in [#"["a","]"#, #"["a""b"]"#, #"["a",]"#, #"[""]"#, #"["a",""]"#, #"[ "a"]"#, "[]", "", #"[""#] {
            let parsed = (try? JSONValue(parsing: Data(text.utf8)))?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(NoteStore.decodeTags(text) == parsed, "\(text)")
            #expect(folded(text) == foldedParsed(text), "\(text)")
        }
    }

    /// A search folds a row's tags from their bytes when it can; those are the bytes of the
    /// tags parsed and folded, and bytes that are not UTF-8 leave the fold as it was.
    @Test func tagsFoldedFromTheirBytesAreTheParsedTagsFolded() {
        #expect(folded(#"["Straße","ÉTÉ","東京"]"#) == foldedParsed(#"["Straße","ÉTÉ","東京"]"#))
        var folder = TextFolding.Folder()
        _ = Array("body".utf8).withUnsafeBufferPointer { folder.fold($0) }
        let broken: [UInt8] = Array(#"["ok",""#.utf8) + [0xFF] + Array(#""]"#.utf8)
        #expect(!broken.withUnsafeBufferPointer { IndexedText.appendTags(json: $0, to: &folder) })
        #expect(folder.bytes == Array("body".utf8), "nothing appended")
    }

    /// The fold of a body and then `json`'s tags from their bytes; nil when they are not read so.
    private func folded(_ json: String) -> [UInt8]? {
        var folder = TextFolding.Folder()
        _ = Array("Body".utf8).withUnsafeBufferPointer { folder.fold($0) }
        let read = Array(json.utf8).withUnsafeBufferPointer { IndexedText.appendTags(json: $0, to: &folder) }
        return read ? folder.bytes : foldedParsed(json)
    }

    /// The fold of a body and then `json`'s tags as `decodeTags` reads them.
    private func foldedParsed(_ json: String) -> [UInt8] {
        var folder = TextFolding.Folder()
        _ = Array("Body".utf8).withUnsafeBufferPointer { folder.fold($0) }
        IndexedText.appendTags(NoteStore.decodeTags(json), to: &folder)
        return folder.bytes
    }
}
