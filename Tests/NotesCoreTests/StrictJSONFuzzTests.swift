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

    /// `value` written as other programs may write it: at each choice, now and then, space
    /// around a token, members out of order, `\/`, `\u` escapes (upper or lower case) where
    /// the encoder writes a character or a short escape, `-0`. Often every choice is the
    /// encoder's, and the text canonical.
    static func loosely(_ value: JSONValue, _ rng: inout SeededRandom, into out: inout [UInt8]) {
        func now() -> Bool { Int.random(in: 0..<25, using: &rng) == 0 }
        func space() { if now() { out += Array([" ", "\n", "\t", "\r"].randomElement(using: &rng)!.utf8) } }
        func string(_ text: String) {
            out.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                let escaped = byte < 0x20 || byte == 0x22 || byte == 0x5C
                if escaped && !now() {
                    // As the encoder writes it.
                    out += JSONValue.string(String(UnicodeScalar(byte))).canonicalBytes.dropFirst().dropLast()
                } else if byte == 0x2F && now() {
                    out += Array("\\/".utf8)
                } else if escaped || (byte < 0x80 && now()) {
                    let hex = String(byte, radix: 16)
                    let digits = (hex.count == 1 ? "000" : "00") + (Bool.random(using: &rng) ? hex : hex.uppercased())
                    out += Array("\\u\(digits)".utf8)
                } else {
                    out.append(byte)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        space()
        switch value {
        case .int(0) where now(): out += Array("-0".utf8)
        case .string(let text): string(text)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                loosely(item, &rng, into: &out)
            }
            space()
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            var sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            if now() { sorted.shuffle(using: &rng) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                space()
                string(member.key)
                space()
                out.append(UInt8(ascii: ":"))
                loosely(member.value, &rng, into: &out)
            }
            space()
            out.append(UInt8(ascii: "}"))
        default: out += value.canonicalBytes
        }
        space()
    }

    /// The parser's word on a text's form (`parsingNotingForm`) is the encoder's: canonical
    /// exactly when `canonicalBytes` of what it read are the text, over canonical documents,
    /// the same written loosely, and damaged ones.
    @Test func theParserTellsTheCanonicalFormAsTheEncoderWritesIt() throws {
        let run = FuzzRun("canonical form", defaultIterations: 30_000)
        var rng = SeededRandom(seed: run.seed)
        let seeds = Self.seeds(&rng)
        let mutator = ByteMutator(
            corpus: seeds,
            extraTokens: [" ", "\\/", "\\u000a", "\\u001F", "\\u001f", "\\u0041", "\\u00e9", "\\n"].map {
                Array($0.utf8)
            })
        var told = (canonical: 0, not: 0)
        for iteration in 0..<run.iterations {
            var bytes: [UInt8] = []
            if iteration % 2 == 0 {
                Self.loosely(Self.value(depth: 0, &rng), &rng, into: &bytes)
            } else {
                bytes = mutator.mutate(mutator.corpus.randomElement(using: &rng)!, using: &rng)
            }
            guard let (value, isCanonical) = try? JSONValue.parsingNotingForm(Data(bytes)) else { continue }
            if isCanonical { told.canonical += 1 } else { told.not += 1 }
            guard isCanonical == (value.canonicalBytes == bytes) else {
                Issue.record(
                    "\(run.context(iteration)): \(String(decoding: bytes, as: UTF8.self)) told canonical: \(isCanonical)"
                )
                return
            }
        }
        print("fuzz canonical form: \(told.canonical) texts canonical, \(told.not) not, as the encoder says")
        #expect(told.canonical > run.iterations / 20 && told.not > run.iterations / 20)
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
