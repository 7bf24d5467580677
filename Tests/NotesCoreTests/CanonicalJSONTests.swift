import Foundation
import NotesTestSupport
import Testing

@testable import NotesCore

@Suite struct CanonicalJSONTests {
    @Test func objectKeysAreSortedByTheirUTF8Bytes() {
        // "～" (U+FF5E, EF BD 9E) sorts before "😀" (F0 9F 98 80) in UTF-8, after it in UTF-16.
        let value = JSONValue.object([
            "b": .int(1), "a": .int(2), "B": .int(3), "é": .int(4), "aa": .int(5), "😀": .int(6), "～": .int(7),
            "": .null,
        ])
        #expect(value.canonicalString == #"{"":null,"B":3,"a":2,"aa":5,"b":1,"é":4,"～":7,"😀":6}"#)
    }

    @Test func nestedValuesHaveNoWhitespace() {
        let value = JSONValue.array([.bool(true), .bool(false), .null, .int(-42), .int(0), .object(["k": .array([])])])
        #expect(value.canonicalString == #"[true,false,null,-42,0,{"k":[]}]"#)
        #expect(JSONValue.int(.min).canonicalString == "-9223372036854775808")
    }

    @Test func stringsEscapeOnlyQuotesBackslashesAndControlCharacters() {
        let cases: [(String, String)] = [
            ("say \"hi\"", #""say \"hi\"""#),
            ("back\\slash/", #""back\\slash/""#),
            ("\n\r\t\u{08}\u{0C}", #""\n\r\t\b\f""#),
            ("\u{00}\u{01}\u{1B}\u{1F}", #""\u0000\u0001\u001b\u001f""#),
            ("\u{7F}é日本🎉\u{2028}\u{9B}", "\"\u{7F}é日本🎉\u{2028}\u{9B}\""),
        ]
        for (input, expected) in cases {
            #expect(JSONValue.string(input).canonicalString == expected)
        }
        // Non-ASCII is written raw, as UTF-8, never as \u escapes.
        #expect(Array(JSONValue.string("é").canonicalData) == [0x22, 0xC3, 0xA9, 0x22])
        // A decomposed é stays decomposed: the bytes are the note's bytes.
        #expect(Array(JSONValue.string("e\u{301}").canonicalData) == [0x22, 0x65, 0xCC, 0x81, 0x22])
    }

    @Test func parsingThenSerializingGivesTheCanonicalForm() throws {
        let loose = " { \"z\" : [ 1 , -2 , \"\\u00e9\\ud83c\\udf89\" ] ,\n \"a\" : { \"y\" : null , \"x\" : true } } "
        let canonical = #"{"a":{"x":true,"y":null},"z":[1,-2,"é🎉"]}"#
        #expect(try JSONValue(parsing: Data(loose.utf8)).canonicalString == canonical)
        #expect(try JSONValue(parsing: Data(canonical.utf8)).canonicalString == canonical)
    }

    @Test func randomValuesRoundTripThroughTheirCanonicalBytes() throws {
        let seed = SeededRandom.seed(default: 1009)
        var rng = SeededRandom(seed: seed)
        let alphabet: [Unicode.Scalar] = [
            "a", "Z", "\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "日", "🎉", "\u{301}", " ",
        ]
        func value(depth: Int) -> JSONValue {
            switch Int.random(in: 0..<(depth > 2 ? 4 : 6), using: &rng) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &rng))
            case 2: return .int(Int64.random(in: .min ... .max, using: &rng))
            case 3: return .string(rng.string(from: alphabet, count: Int.random(in: 0...8, using: &rng)))
            case 4: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in value(depth: depth + 1) })
            default:
                var d: [String: JSONValue] = [:]
                for _ in 0..<Int.random(in: 0...4, using: &rng) {
                    d[rng.string(from: alphabet, count: Int.random(in: 0...4, using: &rng))] = value(depth: depth + 1)
                }
                return .object(d)
            }
        }
        for _ in 0..<300 {
            let v = value(depth: 0)
            let bytes = v.canonicalData
            let back = try JSONValue(parsing: bytes)
            #expect(back.canonicalData == bytes, "seed \(seed): \(v.canonicalString)")
        }
    }

    @Test(arguments: ["1.5", "1.0", "1e2", "-2E3", "[0.5]", #"{"a":1.25}"#, "[1,2.0]"])
    func numbersWithAFractionOrExponentAreRejected(_ text: String) {
        #expect(throws: JSONValueError.self) { try JSONValue(parsing: Data(text.utf8)) }
    }

    @Test func integersAndNumberLikeStringsAreAccepted() throws {
        #expect(
            try JSONValue(parsing: Data(#"["1.5e3", "true", 9223372036854775807, -1]"#.utf8))
                == .array([.string("1.5e3"), .string("true"), .int(.max), .int(-1)]))
        #expect(try JSONValue(parsing: Data("[true,false,null]".utf8)) == .array([.bool(true), .bool(false), .null]))
        #expect(try JSONValue(parsing: Data(#""a\"1.5""#.utf8)) == .string("a\"1.5"))
    }

    @Test func trailingCommasAndRepeatedKeysAreRejected() {
        let cases = [
            ("[1,]", "a trailing comma before ]"), ("{\"a\":1 , }", "a trailing comma before }"),
            (#"{"a":1,"a":2}"#, "the key \"a\" appears twice in one object"),
            (#"{"x":{"a":1,"\u0061":2}}"#, "the key \"a\" appears twice in one object"),
            (#"{"é":1,"e\u0301":2}"#, "the key \"é\" appears twice in one object"),
        ]
        for (text, message) in cases {
            #expect(throws: JSONValueError.notCanonical(message), "\(text)") { try JSONValue(parsing: Data(text.utf8)) }
        }
        // The same key in different objects, and keys that only look alike as values, are fine.
        #expect(throws: Never.self) { try JSONValue(parsing: Data(#"[{"a":1},{"a":2,"b":"a"},{"c":[","]}]"#.utf8)) }
    }

    @Test func hostileAndMalformedFilesAreErrorsNeverCrashes() {
        let cases: [[UInt8]] = [
            Array("[\"unterminated".utf8), Array("[\"raw tab:\t\"]".utf8),
            Array("\"\\x\"".utf8), Array(#""\ud800""#.utf8), Array(#""\udc00\ud800""#.utf8),
            Array(#""\u12g4""#.utf8), Array(#""\u12""#.utf8), [0x22, 0xFF, 0xFE, 0x22], [0x22, 0xC3, 0x22],
            Array("[1 2]".utf8), Array("{\"a\":1 \"b\":2}".utf8), Array("{1:2}".utf8), Array("[01]".utf8),
            Array("[-]".utf8), Array("[+1]".utf8), Array("9223372036854775808".utf8),
            Array("-9223372036854775809".utf8),
            Array("[true false]".utf8), Array("tru".utf8), Array("nulls".utf8), Array("[1]]".utf8), Array("{}x".utf8),
            Array(repeating: UInt8(ascii: "["), count: 100_000),
        ]
        for bytes in cases {
            #expect(throws: JSONValueError.self, "\(bytes.prefix(40))") { try JSONValue(parsing: Data(bytes)) }
        }
    }

    @Test func escapesAndExtremeIntegersParseToWhatTheyMean() throws {
        let text = #"{"s":"\"\\\/\b\f\n\r\t\u0000\u00e9\uD83C\uDF89 日","min":-9223372036854775808,"z":-0,"e":[{},[]]}"#
        #expect(
            try JSONValue(parsing: Data(text.utf8))
                == .object([
                    "s": .string("\"\\/\u{8}\u{C}\n\r\t\u{0}é🎉 日"), "min": .int(.min), "z": .int(0),
                    "e": .array([.object([:]), .array([])]),
                ]))
        // Whitespace anywhere between tokens, nesting up to the limit.
        let nested = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: Never.self) { try JSONValue(parsing: Data(" \t\r\n\(nested) \n".utf8)) }
    }

    @Test func malformedTextIsAnErrorNotAGuess() {
        for text in ["", "{", "99999999999999999999", "{\"a\" 1}", "nul"] {
            #expect(throws: JSONValueError.self, "\(text)") { try JSONValue(parsing: Data(text.utf8)) }
        }
    }
}
