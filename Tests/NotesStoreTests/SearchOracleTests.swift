import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStore

/// The store's search against a brute-force scan of the same semantics (ARCHITECTURE §5).
@Suite(.serialized) struct SearchOracleTests {
    /// Set CLOUDNOTES_SEARCH_SEED to replay a failure.
    static let seed: UInt64 =
        ProcessInfo.processInfo.environment["CLOUDNOTES_SEARCH_SEED"].flatMap { UInt64($0) } ?? 20_251_123

    /// A corpus imported, then edited, trashed, restored, favorited and purged through the
    /// store's own write paths, so the index is checked after every kind of write.
    static func makeCorpus(seed: UInt64, count: Int = 2000) throws -> (TestStore, SearchOracle) {
        let t = try TestStore()
        var rng = SeededRandom(seed: seed ^ 0xA5A5)
        let imported = SearchCorpus.notes(count: count, seed: seed)
        _ = try t.store.importNotes(imported, batchSize: 700)
        var ids = imported.map(\.id)
        for _ in 0..<150 {
            t.advance(Double(Int.random(in: 1...600, using: &rng)))
            let id = ids.randomElement(using: &rng)!
            switch Int.random(in: 0..<7, using: &rng) {
            case 0: _ = try t.store.update(id) { $0.body += "\n" + SearchCorpus.text(&rng, words: 5, newlines: false) }
            case 1: _ = try t.store.update(id) { $0.title = SearchCorpus.text(&rng, words: 3, newlines: false) }
            case 2: _ = try t.store.update(id) { $0.tags = [SearchCorpus.tags.randomElement(using: &rng)!] }
            case 3: _ = try t.store.trash(id)
            case 4: _ = try t.store.restore(id)
            case 5: _ = try t.store.setFavorite(id, Bool.random(using: &rng))
            default:
                try t.store.purge(id)
                ids.removeAll { $0 == id }
            }
        }
        let notes = try ids.map { try #require(try t.store.note($0)) }
        return (t, SearchOracle(notes))
    }

    /// Every hit of `query`, page by page; fails on a repeated note.
    static func allHits(_ store: NoteStore, _ query: SearchQuery, limit: Int) throws -> [SearchHit] {
        var hits: [SearchHit] = []
        var cursor: SearchCursor?
        repeat {
            let page = try store.search(query, limit: limit, after: cursor)
            #expect(page.hits.count <= limit)
            hits += page.hits
            cursor = page.next
            if hits.count > 100_000 { break }
        } while cursor != nil
        return hits
    }

    static func randomQuery(_ rng: inout SeededRandom, notes: [Note]) -> (SearchQuery, String) {
        func pick() -> String {
            let note = notes.randomElement(using: &rng)!
            let source = Bool.random(using: &rng) ? note.body : note.title
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1:
                // A prefix of a word, as a user types it, in any case.
                let word = SearchCorpus.word(&rng)
                let prefix = String(word.prefix(Int.random(in: 1...max(1, word.count), using: &rng)))
                return Bool.random(using: &rng) ? prefix.uppercased() : prefix
            case 2:
                // Accented words typed without their accents.
                return String(
                    String.UnicodeScalarView(
                        SearchCorpus.accented.randomElement(using: &rng)!.decomposedStringWithCanonicalMapping
                            .unicodeScalars
                            .filter { !($0.properties.generalCategory == .nonspacingMark && $0.properties.isDiacritic) }
                    ))
            case 3:
                return [SearchCorpus.cjk, SearchCorpus.emoji].randomElement(using: &rng)!.randomElement(using: &rng)!
            case 4, 5, 6:
                // A substring of a note, spaces and punctuation included: 1 to 8 characters.
                let chars = Array(source)
                guard !chars.isEmpty else { return "e" }
                let start = Int.random(in: 0..<chars.count, using: &rng)
                let length = Int.random(in: 1...min(8, chars.count - start), using: &rng)
                return String(chars[start..<(start + length)])
            case 7:
                return String("abcdefghijklmnopqrstuvwxyzé日🎉".randomElement(using: &rng)!)
            default:
                return SearchCorpus.word(&rng)
            }
        }
        var query = SearchQuery()
        var text: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            switch Int.random(in: 0..<20, using: &rng) {
            case 0..<12:
                let term = pick()
                query.terms.append(term)
                text.append(term)
            case 12..<15:
                let term = pick()
                query.excludedTerms.append(term)
                text.append("-" + term)
            case 15:
                let tag = SearchCorpus.tags.randomElement(using: &rng)!
                query.tags.append(Bool.random(using: &rng) ? tag.uppercased() : tag)
                text.append("tag:" + tag)
            case 16:
                query.excludedTags.append(SearchCorpus.tags.randomElement(using: &rng)!)
                text.append("-tag:" + query.excludedTags.last!)
            case 17:
                if Bool.random(using: &rng) {
                    query.favoritesOnly = true
                    text.append("is:fav")
                } else {
                    query.excludesFavorites = true
                    text.append("-is:fav")
                }
            case 18 where Int.random(in: 0..<3, using: &rng) == 0:
                query.openTasks = Bool.random(using: &rng)
                text.append(query.openTasks == true ? "has:todo" : "-has:todo")
            case 18 where Bool.random(using: &rng):
                query.excludedNotebooks.append(SearchCorpus.zones.randomElement(using: &rng)!)
                text.append("-in:" + query.excludedNotebooks.last!)
            default:
                query.notebook = SearchCorpus.zones.randomElement(using: &rng)!
                text.append("in:" + query.notebook!)
            }
        }
        return (query, text.joined(separator: " ").debugDescription)
    }

    @Test func randomQueriesReturnExactlyTheBruteForceSetInRankOrder() throws {
        let seed = Self.seed
        // More notes than SearchPlan.probeWindow, so short terms take every path: the rarity
        // probe, the trigram vocabulary and the instr scan.
        let (t, oracle) = try Self.makeCorpus(seed: seed, count: SearchPlan.probeWindow + 600)
        #expect(oracle.entries.filter { $0.note.deletedAt == nil }.count > SearchPlan.probeWindow)
        var rng = SeededRandom(seed: seed)
        let notes = oracle.entries.map(\.note)
        let modified = Dictionary(uniqueKeysWithValues: notes.map { ($0.id, $0.modifiedAt) })
        var failures = 0
        var selective = 0
        var sawTier1 = 0
        var sawTiers0And2 = 0
        defer {
            // The queries must be ones that tell a wrong index apart from a right one.
            #expect(
                selective > 100 && sawTier1 > 8 && sawTiers0And2 > 35,
                "seed \(seed): \(selective) \(sawTier1) \(sawTiers0And2)")
        }
        for n in 0..<300 where failures < 10 {
            let (query, shown) = Self.randomQuery(&rng, notes: notes)
            let expected = oracle.expected(query)
            // Small pages where that stays quick; the pagination test below pages big sets.
            let limit = expected.count <= 150 ? [7, 50].randomElement(using: &rng)! : 500
            let hits = try Self.allHits(t.store, query, limit: limit)
            if !expected.isEmpty && expected.count < notes.count / 2 { selective += 1 }
            if expected.values.contains(1) { sawTier1 += 1 }
            if expected.values.contains(0) && expected.values.contains(2) { sawTiers0And2 += 1 }
            let got = Dictionary(hits.map { ($0.note.id, $0.tier) }, uniquingKeysWith: { a, _ in a })
            let context = "seed \(seed) query #\(n) \(shown) → \(query)"
            #expect(got.count == hits.count, "a note was returned twice: \(context)")
            if Set(got.keys) != Set(expected.keys) {
                failures += 1
                let missing = Set(expected.keys).subtracting(got.keys).prefix(3).compactMap { id in
                    notes.first { $0.id == id }
                }
                let extra = Set(got.keys).subtracting(expected.keys).prefix(3).compactMap { id in
                    notes.first { $0.id == id }
                }
                Issue.record(
                    "\(context): \(expected.count) expected, \(got.count) returned; missing \(missing.map { ($0.title, $0.body.prefix(80), $0.tags) }); extra \(extra.map { ($0.title, $0.body.prefix(80), $0.tags) })"
                )
                continue
            }
            #expect(got == expected, "tiers differ: \(context)")
            for (a, b) in zip(hits, hits.dropFirst()) {
                let ordered = a.tier < b.tier || (a.tier == b.tier && modified[a.note.id]! >= modified[b.note.id]!)
                if !ordered {
                    Issue.record(
                        "\(context): \(a.note.title) (tier \(a.tier), \(modified[a.note.id]!)) before \(b.note.title) (tier \(b.tier), \(modified[b.note.id]!))"
                    )
                    failures += 1
                    break
                }
            }
        }
    }

    @Test func pagingWithACursorReturnsEveryHitExactlyOnceInTheSameOrder() throws {
        let (t, oracle) = try Self.makeCorpus(seed: Self.seed &+ 1, count: 1200)
        for text in ["e", "the", "a e", "", "-the", "is:fav", "日", "e -o", "tag:work"] {
            let query = SearchQuery(parsing: text)
            let whole = try t.store.search(query, limit: 100_000)
            #expect(whole.next == nil)
            #expect(Set(whole.hits.map(\.note.id)) == Set(oracle.expected(query).keys), "\(text)")
            for limit in [7, 64] {
                let paged = try Self.allHits(t.store, query, limit: limit)
                #expect(paged.map(\.note.id) == whole.hits.map(\.note.id), "\(text) limit \(limit)")
            }
        }
    }
}
