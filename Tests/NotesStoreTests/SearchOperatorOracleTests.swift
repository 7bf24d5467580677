import Foundation
import GRDB
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStore

/// The query language of issue 25 (OR, groups, NOT, dates, `title:`, `has:`, `in:` by name,
/// `sort:`) against a brute-force reading of random queries on a random store.
@Suite(.serialized) struct SearchOperatorOracleTests {
    /// Set CLOUDNOTES_SEARCH_SEED to replay a failure.
    static let seed: UInt64 =
        ProcessInfo.processInfo.environment["CLOUDNOTES_SEARCH_SEED"].flatMap { UInt64($0) } ?? 20_261_128
    /// Daylight saving changes here, so a day is not always 24 hours.
    static let timeZone = TimeZone(identifier: "America/New_York")!

    /// The corpus of `SearchOracleTests` with notebook names, attachments and conflicts, and a
    /// "now" in the middle of its dates.
    static func makeStore(seed: UInt64) throws -> (TestStore, SearchOracle, names: [String: String]) {
        let (t, _) = try SearchOracleTests.makeCorpus(seed: seed, count: 1500)
        var rng = SeededRandom(seed: seed ^ 0x5EED)
        let names = ["work": "Work Stuff", "travel-2025": "Trips ✈︎"]
        for (zone, name) in names.sorted(by: { $0.key < $1.key }) {
            try t.store.renameNotebook(zone, to: name)
        }
        let ids = try t.store.read { db in try String.fetchAll(db, sql: "SELECT id FROM note ORDER BY id") }
            .compactMap(UUID.init(uuidString:))
        let live = try ids.filter { try t.store.note($0)?.deletedAt == nil }
        let file = t.directory.appendingPathComponent("attachment.txt")
        try Data("attached".utf8).write(to: file)
        let content = try t.store.addAttachmentContent(fromFile: file.path, name: "a.txt", maxBytes: 1 << 20)
        for id in live.shuffled(using: &rng).prefix(live.count / 12) { try t.store.attach(id, [content]) }
        let conflicted = live.shuffled(using: &rng).prefix(live.count / 15).map(\.lowercasedString)
        try t.store.write { db in
            for id in conflicted {
                try db.execute(sql: "UPDATE note SET syncState = 'conflict' WHERE id = ?", arguments: [id])
            }
        }
        // Mid-corpus: relative dates then have notes on both sides.
        t.now = Date(millisecondsSince1970: 1_700_000_000_000 + 45_000_000_000)
        let notes = try ids.map { try #require(try t.store.note($0)) }
        return (t, SearchOracle(notes), names)
    }

    /// Every hit of `text`, page by page.
    static func allHits(_ store: NoteStore, _ text: String, limit: Int) throws -> [SearchHit] {
        var hits: [SearchHit] = []
        var cursor: SearchCursor?
        repeat {
            let page = try store.search(text, limit: limit, after: cursor, timeZone: timeZone)
            #expect(page.hits.count <= limit)
            hits += page.hits
            cursor = page.next
        } while cursor != nil && hits.count < 100_000
        return hits
    }

    @Test func randomQueriesOfEveryOperatorReturnExactlyTheBruteForceSet() throws {
        let seed = Self.seed
        let (t, oracle, names) = try Self.makeStore(seed: seed)
        let generator = OperatorQueryGenerator(
            notes: oracle.entries.map(\.note), names: names, now: t.now, timeZone: Self.timeZone)
        let byID = Dictionary(uniqueKeysWithValues: oracle.entries.map { ($0.note.id, $0.note) })
        var rng = SeededRandom(seed: seed)
        var failures = 0
        var selective = 0
        var sorted = 0
        // Per operator, the queries with it whose answer was checked and told notes apart.
        let operators = [
            " OR ", "(", "-(", "title:", "tag:", "is:fav", "in:", "in:\"", "has:todo", "has:attachment",
            "has:conflict", "created:", "modified:", "..", "today", "yesterday", ":>", ":<", "sort:",
        ]
        var covered: [String: Int] = [:]
        for n in 0..<250 where failures < 10 {
            let generated = generator.query(&rng)
            let expected = OperatorQueryGenerator.expected(generated, in: oracle.entries)
            let limit = [7, 50, 400].randomElement(using: &rng)!
            let context = "seed \(seed) query #\(n) \(generated.text.debugDescription)"
            let hits = try Self.allHits(t.store, generated.text, limit: limit)
            let got = Dictionary(hits.map { ($0.note.id, $0.tier) }, uniquingKeysWith: { a, _ in a })
            #expect(got.count == hits.count, "a note was returned twice: \(context)")
            if !expected.isEmpty && expected.count < oracle.entries.count / 3 { selective += 1 }
            guard Set(got.keys) == Set(expected.keys) else {
                failures += 1
                let missing = Set(expected.keys).subtracting(got.keys).prefix(2).compactMap { byID[$0] }
                let extra = Set(got.keys).subtracting(expected.keys).prefix(2).compactMap { byID[$0] }
                Issue.record(
                    "\(context): \(expected.count) expected, \(got.count) returned; missing \(missing.map(Self.describe)); extra \(extra.map(Self.describe))"
                )
                continue
            }
            #expect(got == expected, "tiers differ: \(context)")
            if !expected.isEmpty && expected.count < oracle.entries.count / 2 {
                for op in operators where generated.text.contains(op) { covered[op, default: 0] += 1 }
            }
            if generated.sort != nil { sorted += 1 }
            for (a, b) in zip(hits, hits.dropFirst()) {
                guard let x = byID[a.note.id], let y = byID[b.note.id] else { continue }
                let ordered: Bool
                switch generated.sort {
                case .created?: ordered = x.createdAt >= y.createdAt
                case .modified?: ordered = x.modifiedAt >= y.modifiedAt
                case .title?:
                    ordered = !SearchOracle.fold(y.title).lexicographicallyPrecedes(SearchOracle.fold(x.title))
                case nil: ordered = a.tier < b.tier || (a.tier == b.tier && x.modifiedAt >= y.modifiedAt)
                }
                if !ordered {
                    failures += 1
                    Issue.record("\(context): out of order: \(Self.describe(x)) before \(Self.describe(y))")
                    break
                }
            }
        }
        // The queries must tell a wrong plan from a right one.
        #expect(selective > 90 && sorted > 30, "seed \(seed): \(selective) selective, \(sorted) sorted")
        #expect(
            operators.allSatisfy { covered[$0, default: 0] >= 3 },
            "seed \(seed): operators seldom checked: \(operators.map { "\($0) \(covered[$0, default: 0])" })")
    }

    static func describe(_ note: Note) -> String {
        "\(note.title.prefix(30).debugDescription) in \(note.zone) created \(note.createdAt) modified \(note.modifiedAt) \(note.tags) \(note.syncState) \(note.attachments.count) attachments"
    }

    @Test func anUnknownNotebookIsAnErrorNamingIt() throws {
        let t = try TestStore()
        _ = try t.store.createNotebook(named: "Work Stuff")
        #expect(try t.store.search(#"in:"work stuff""#).hits.isEmpty)
        #expect(throws: StoreError.self) { try t.store.search("in:nowhere") }
        do {
            _ = try t.store.search("(a OR in:nowhere)")
        } catch let error as StoreError {
            #expect(error.message == #"no notebook named "nowhere""#)
        }
    }
}
