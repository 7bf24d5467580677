import Foundation
import NotesTestSupport
import Testing

@testable import NotesCore

/// The strict JSON reader (`JSONValue(parsing:)`) on damaged input (ARCHITECTURE §7): it returns a
/// value or throws, never traps; what it returns re-encodes to bytes it reads back the same;
/// and it never accepts text that is not UTF-8.
@Suite struct StrictJSONFuzzTests {
    static let alphabet: [Unicode.Scalar] = [
        "a", "Z", "0", "\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "日", "🎉", "\u{301}", " ", "\u{FEFF}",
        "\u{FFFF}", "\u{10FFFF}",
    ]

    static func value(depth: Int, _ rng: inout SeededRandom) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2:
            return .int(
                [Int64.min, Int64.max, 0, -1, Int64.random(in: .min ... .max, using: &rng)].randomElement(using: &rng)!)
        case 3: return .string(rng.string(from: alphabet, count: Int.random(in: 0...8, using: &rng)))
        case 4: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in value(depth: depth + 1, &rng) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                members[rng.string(from: alphabet, count: Int.random(in: 0...4, using: &rng))] = value(
                    depth: depth + 1, &rng)
            }
            return .object(members)
        }
    }

    /// Canonical documents of random values, and loose JSON (spaces, escapes) as others write it.
    static func seeds(_ rng: inout SeededRandom) -> [[UInt8]] {
        var seeds = (0..<60).map { _ in value(depth: 0, &rng).canonicalBytes }
        seeds += [
            " { \"z\" : [ 1 , -2 , \"\\u00e9\\ud83c\\udf89\" ] ,\n \"a\" : { \"y\" : null , \"x\" : true } } ",
            #"["\b\f\n\r\t\/\\\"",-9223372036854775808,9223372036854775807]"#,
            #"{"deep":[[[[[[[[[[{"a":[{}]}]]]]]]]]]]}"#,
        ].map { Array($0.utf8) }
        return seeds
    }

    @Test func damagedJSONParsesOrThrows() throws {
        let run = FuzzRun("strict JSON")
        var rng = SeededRandom(seed: run.seed)
        let seeds = Self.seeds(&rng)
        for seed in seeds {
            let value = try JSONValue(parsing: Data(seed))
            #expect(try JSONValue(parsing: value.canonicalData) == value, "\(run.context(0))")
        }
        let mutator = ByteMutator(corpus: seeds)
        var parsed = 0
        for iteration in 0..<run.iterations {
            let bytes = mutator.mutate(mutator.corpus.randomElement(using: &rng)!, using: &rng)
            guard let value = try? JSONValue(parsing: Data(bytes)) else { continue }
            parsed += 1
            let canonical = value.canonicalBytes
            let again = try? JSONValue(parsing: Data(canonical))
            guard again == value, again?.canonicalBytes == canonical, String(validating: bytes, as: UTF8.self) != nil
            else {
                Issue.record("\(run.context(iteration)): \(bytes) parsed to \(value)")
                return
            }
        }
        print("fuzz strict JSON: \(parsed) of \(run.iterations) damaged documents still parsed")
    }

    @Test func edgesOfTheGrammarAreErrors() {
        for text in [
            "1e309", "-1e309", "9223372036854775808", "-9223372036854775809", "18446744073709551616", "\"\\ud800\"",
            "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\ud800\\", "\"\\u12", String(repeating: "[", count: 600),
            String(repeating: "{\"a\":", count: 600) + "1" + String(repeating: "}", count: 600),
        ] {
            #expect(throws: JSONValueError.self, "\(text.prefix(40))") { try JSONValue(parsing: Data(text.utf8)) }
        }
        for bytes: [UInt8] in [[0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xFF, 0x22]] {
            #expect(throws: JSONValueError.self, "\(bytes)") { try JSONValue(parsing: Data(bytes)) }
        }
        let deepest = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
        #expect(throws: Never.self) { try JSONValue(parsing: Data(deepest.utf8)) }
    }
}
