import Foundation
import NotesTestSupport
import Testing

/// The seeded corpus that tests and benchmarks import (`NotesTestSupport.Corpus`).
@Suite struct CorpusTests {
    @Test func aSeedGivesTheSameNotesEveryRunAndAnotherSeedOthers() {
        let first = Array(Corpus(count: 50, seed: 5))
        #expect(first == Array(Corpus(count: 50, seed: 5)))
        #expect(first.count == 50 && Set(first.map(\.id)).count == 50)
        #expect(Array(Corpus(count: 50, seed: 6)).map(\.id) != first.map(\.id))
        #expect(Array(Corpus(count: 10, seed: 5)) == Array(first.prefix(10)), "a shorter run is a prefix")
    }

    @Test func theNotesMixScriptsMarkdownTagsAndFavourites() throws {
        let notes = Array(Corpus(count: 500, seed: 1))
        let text = "\n" + notes.map { $0.title + "\n" + $0.body }.joined(separator: "\n")
        for sample in ["é", "日本語", "한국어", "🚀", "\n- ", "\n## ", "\n\n"] {
            #expect(text.contains(sample), "no \(sample.debugDescription)")
        }
        let favourites = notes.filter(\.isFavorite).count
        #expect((25...75).contains(favourites), "\(favourites) favourites of 500")
        #expect(notes.contains { $0.tags.isEmpty } && notes.contains { $0.tags.count == 3 })
        #expect(notes.contains { $0.tags.contains("日本") })
        for note in notes {
            #expect(UUID(uuidString: note.id) != nil && note.id == note.id.lowercased())
            #expect(note.createdAt <= note.modifiedAt && note.createdAt.hasSuffix("Z"))
            #expect(note.tags == note.tags.sorted() && !note.title.isEmpty)
        }
    }

    @Test func jsonLinesHoldOneNotePerLine() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let bytes = try Corpus.writeJSONLines(count: 30, seed: 2, to: file)
        let data = try Data(contentsOf: file)
        #expect(data.count == bytes)
        let lines = data.split(separator: UInt8(ascii: "\n"))
        let decoded = try lines.map { try JSONDecoder().decode(CorpusNote.self, from: Data($0)) }
        #expect(decoded == Array(Corpus(count: 30, seed: 2)))
    }
}
