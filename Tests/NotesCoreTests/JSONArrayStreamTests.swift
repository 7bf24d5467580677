import Foundation
import NotesCore
import NotesTestSupport
import Testing

/// The streamed JSON array of `export --format json` (issue 27, bounded memory) against its
/// oracle: `JSONEncoder` with the same formatting encoding the whole array at once.
@Suite struct JSONArrayStreamTests {
    struct Item: Codable {
        var title: String
        var tags: [String]
        var nested: [Nested]
        var count: Int?
        var flag: Bool
    }

    struct Nested: Codable {
        var name: String
        var size: Int64
    }

    static let alphabet: [Unicode.Scalar] = Array("ab/\\\"\n\r\t {}[],: é東京🙂\u{7}\u{1B}".unicodeScalars)

    func streamed(_ items: [Item], sizes: inout [Int]) throws -> Data {
        var out = Data()
        var chunks: [Int] = []
        var stream = JSONArrayStream { chunk in
            out.append(chunk)
            chunks.append(chunk.count)
        }
        for item in items { try stream.append(item) }
        try stream.finish()
        sizes = chunks
        return out
    }

    func oracle(_ items: [Item]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(items)
    }

    @Test func randomArraysAreByteForByteWhatTheEncoderWrites() throws {
        let seed = SeededRandom.seed(default: 27)
        var random = SeededRandom(seed: seed)
        for round in 0..<60 {
            let items = (0..<random.below(8)).map { _ in
                Item(
                    title: random.string(from: Self.alphabet, count: random.below(30)),
                    tags: (0..<random.below(3)).map { _ in random.string(from: Self.alphabet, count: random.below(6)) },
                    nested: (0..<random.below(3)).map { _ in
                        Nested(name: random.string(from: Self.alphabet, count: 4), size: Int64(random.below(1 << 20)))
                    },
                    count: random.below(2) == 0 ? nil : random.below(1000) - 500, flag: random.below(2) == 0)
            }
            var sizes: [Int] = []
            let got = try streamed(items, sizes: &sizes)
            let want = try oracle(items)
            #expect(got == want, "seed \(seed) (CLOUDNOTES_SEED), round \(round): \(items.count) items differ")
        }
    }

    @Test func aLargeArrayGoesOutInPiecesAndStillMatches() throws {
        let body = String(repeating: "line of a long note\n", count: 5_000)
        let items = (0..<40).map { Item(title: body + String($0), tags: [], nested: [], count: $0, flag: true) }
        var sizes: [Int] = []
        let got = try streamed(items, sizes: &sizes)
        #expect(got == (try oracle(items)))
        #expect(sizes.count > 2, "written in pieces, not at the end: \(sizes)")
        #expect(sizes.allSatisfy { $0 < 2 << 20 }, "no piece holds much more than a megabyte: \(sizes)")
    }
}
