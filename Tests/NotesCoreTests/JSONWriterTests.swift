import Foundation
import NotesCore
import NotesTestSupport
import Testing

/// `PrettyJSONWriter` writes what `JSONEncoder` (pretty, sorted keys, slashes unescaped) writes,
/// held to the encoder over random values of nested objects, arrays (empty ones too), absent
/// optionals, numbers and strings of every control character, quotes, slashes and non-ASCII text.
@Suite struct JSONWriterTests {
    struct Inner: Encodable {
        var alpha: String
        var beta: String?
        var flag: Bool
        var list: [String]
        var number: Int
    }

    struct Sample: Encodable {
        var empty: [Int]
        var inner: Inner
        var items: [[Int]]
        var text: String
        var tier: Int
    }

    static func write(_ sample: Sample, to json: inout PrettyJSONWriter) {
        json.openObject()
        json.key("empty")
        json.openArray()
        json.closeArray()
        json.key("inner")
        json.openObject()
        json.key("alpha")
        json.string(sample.inner.alpha)
        if let beta = sample.inner.beta {
            json.key("beta")
            json.string(beta)
        }
        json.key("flag")
        json.bool(sample.inner.flag)
        json.key("list")
        json.openArray()
        for text in sample.inner.list {
            json.element()
            json.string(text)
        }
        json.closeArray()
        json.key("number")
        json.int(sample.inner.number)
        json.closeObject()
        json.key("items")
        json.openArray()
        for item in sample.items {
            json.element()
            json.openArray()
            for number in item {
                json.element()
                json.int(number)
            }
            json.closeArray()
        }
        json.closeArray()
        json.key("text")
        json.string(sample.text)
        json.key("tier")
        json.int(sample.tier)
        json.closeObject()
    }

    static func text(_ random: inout SeededRandom) -> String {
        let others: [Unicode.Scalar] = [
            "é", "東", "👍", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{85}", "\u{AD}", "\u{1F3FD}", "\u{10FFFF}",
            "\u{FFFD}",
        ]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<random.below(24) {
            scalars.append(
                random.below(3) == 0
                    ? others[random.below(others.count)] : Unicode.Scalar(UInt8(random.below(0x80))))
        }
        return String(scalars)
    }

    @Test func theWriterWritesWhatTheEncoderWrites() throws {
        let seed = SeededRandom.seed(default: 20_261_201)
        var random = SeededRandom(seed: seed)
        for round in 0..<300 {
            let samples = (0..<random.below(4)).map { _ in
                Sample(
                    empty: [],
                    inner: Inner(
                        alpha: Self.text(&random), beta: random.below(2) == 0 ? nil : Self.text(&random),
                        flag: random.below(2) == 0, list: (0..<random.below(3)).map { _ in Self.text(&random) },
                        number: Int(truncatingIfNeeded: random.next()) >> random.below(64)),
                    items: (0..<random.below(3)).map { _ in (0..<random.below(3)).map { _ in random.below(1000) - 500 }
                    },
                    text: Self.text(&random), tier: random.below(3))
            }
            var encoded = Data()
            var stream = JSONArrayStream { encoded += $0 }
            var written = Data()
            var writing = JSONArrayStream { written += $0 }
            for sample in samples {
                try stream.append(sample)
                try writing.append { json in
                    Self.write(sample, to: &json)
                    return true
                }
                // Written and taken back: nothing of it stays.
                try writing.append { json in
                    Self.write(sample, to: &json)
                    return false
                }
            }
            try stream.finish()
            try writing.finish()
            #expect(
                written == encoded,
                "round \(round): \(String(decoding: written, as: UTF8.self)) (CLOUDNOTES_SEED=\(seed))")
        }
    }
}
