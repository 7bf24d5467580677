import Foundation

/// The one JSON reader for `JSONValue`: strict, one pass over the bytes.
///
/// Everything the sync engine reads from the cloud folder goes through here (an initial sync of
/// 100k notes parses ~100 MB), so it works on the raw bytes rather than through `JSONDecoder`
/// (which was most of a fetch's CPU time). Beyond JSON's grammar it rejects what the canonical
/// form cannot hold: a number with a fraction or an exponent (`1.0` would become the integer
/// 1), an integer outside Int64, a trailing comma, and a key that appears twice in one object
/// (one value would be dropped silently, and two readers could disagree on which). Strings
/// must be valid UTF-8 with no raw control characters, and `\u` escapes valid UTF-16; nesting
/// deeper than `maxDepth` is refused rather than risking the stack on a hostile file.
struct StrictJSONParser {
    static let maxDepth = 512

    private let bytes: UnsafeRawBufferPointer
    private var i = 0
    /// Whether the bytes read so far are what `JSONValue.canonicalBytes` writes for what they
    /// hold: no space, keys in ascending byte order, escapes only where the writer makes them,
    /// no `-0`.
    private var canonical = true

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    static func parse(_ data: Data) throws -> JSONValue {
        try parseNotingForm(data).value
    }

    /// The value, and whether `data` is its canonical form (`canonicalBytes == data`), seen in
    /// the same pass: a check of a file's form that needs no second encoding of it.
    static func parseNotingForm(_ data: Data) throws -> (value: JSONValue, isCanonical: Bool) {
        try data.withUnsafeBytes { raw in
            var parser = StrictJSONParser(raw)
            parser.skipSpace()
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.i == raw.count else { throw parser.failure("unexpected text after the value") }
            return (value, parser.canonical)
        }
    }

    private func failure(_ message: String) -> JSONValueError {
        .notCanonical("\(message) (at byte \(i))")
    }

    private var current: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipSpace() {
        let start = i
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        if i != start { canonical = false }
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard depth < Self.maxDepth else { throw failure("nested deeper than \(Self.maxDepth) levels") }
        guard let b = current else { throw failure("the text ends where a value should be") }
        switch b {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .int(try integer())
        default: throw failure("a value was expected")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
        let expected = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard i + expected.count <= bytes.count, expected.indices.allSatisfy({ bytes[i + $0] == expected[$0] }) else {
            throw failure("a value was expected")
        }
        i += expected.count
        return value
    }

    private mutating func integer() throws -> Int64 {
        let start = i
        let negative = current == UInt8(ascii: "-")
        if negative { i += 1 }
        let digitsStart = i
        var magnitude: UInt64 = 0
        var overflow = false
        while let b = current, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(b - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            magnitude = sum
            i += 1
        }
        if let b = current, b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
            while let b = current, "0123456789+-.eE".utf8.contains(b) { i += 1 }
            let token = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            throw JSONValueError.notCanonical(
                "\(token) is not an integer; the canonical form has no fractions or exponents")
        }
        let digits = i - digitsStart
        guard digits > 0 else { throw failure("a digit was expected") }
        guard digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else {
            throw failure("a number has a leading zero")
        }
        let limit = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        guard !overflow, magnitude <= limit else { throw failure("the integer is outside the 64-bit range") }
        if negative && magnitude == 0 { canonical = false }
        return negative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude)
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            i += 1
            return .array(items)
        }
        while true {
            skipSpace()
            if current == UInt8(ascii: "]") { throw JSONValueError.notCanonical("a trailing comma before ]") }
            items.append(try value(depth: depth + 1))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"):
                i += 1
                return .array(items)
            default: throw failure("',' or ']' was expected in an array")
            }
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        i += 1
        var members: [String: JSONValue] = [:]
        var previousKey: String?
        skipSpace()
        if current == UInt8(ascii: "}") {
            i += 1
            return .object(members)
        }
        while true {
            skipSpace()
            if current == UInt8(ascii: "}") { throw JSONValueError.notCanonical("a trailing comma before }") }
            guard current == UInt8(ascii: "\"") else { throw failure("a key (a string) was expected in an object") }
            let key = try string()
            if let previousKey, !previousKey.utf8.lexicographicallyPrecedes(key.utf8) { canonical = false }
            previousKey = key
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw failure("':' was expected after a key") }
            i += 1
            skipSpace()
            let item = try value(depth: depth + 1)
            guard members.updateValue(item, forKey: key) == nil else {
                throw JSONValueError.notCanonical("the key \"\(key)\" appears twice in one object")
            }
            skipSpace()
            switch current {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"):
                i += 1
                return .object(members)
            default: throw failure("',' or '}' was expected in an object")
            }
        }
    }

    /// A string at the opening quote. Runs without escapes are validated and copied as UTF-8.
    private mutating func string() throws -> String {
        i += 1
        var runStart = i
        // Filled only once an escape is seen, and appended to in place: copying it per escape
        // made a string of n escaped newlines cost O(n²) (a 100k-line body took minutes).
        var collected: [UInt8] = []
        var escaped = false
        while true {
            guard let b = current else { throw failure("a string is not terminated") }
            switch b {
            case UInt8(ascii: "\""):
                let run = UnsafeRawBufferPointer(rebasing: bytes[runStart..<i])
                i += 1
                if escaped {
                    collected.append(contentsOf: run)
                    return try Self.decodeUTF8(collected, failure: failure("a string is not valid UTF-8"))
                }
                return try Self.decodeUTF8(run, failure: failure("a string is not valid UTF-8"))
            case UInt8(ascii: "\\"):
                collected.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<i]))
                escaped = true
                i += 1
                try escape(into: &collected)
                runStart = i
            case 0..<0x20:
                throw failure("a control character inside a string must be escaped")
            default:
                i += 1
            }
        }
    }

    private static func decodeUTF8<C: Collection>(_ bytes: C, failure: @autoclosure () -> JSONValueError) throws
        -> String
    where C.Element == UInt8 {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw failure() }
        return text
    }

    /// After a backslash: appends the escaped character's UTF-8 bytes.
    private mutating func escape(into out: inout [UInt8]) throws {
        guard let b = current else { throw failure("a string is not terminated") }
        i += 1
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(b)
        case UInt8(ascii: "/"):
            canonical = false
            out.append(b)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            let digits = i
            var unit = try hex4()
            // The writer spells a control character with no short escape as \u00 and two
            // lowercase hex digits, and writes everything else as it is.
            let hasShortEscape = unit == 0x08 || unit == 0x09 || unit == 0x0A || unit == 0x0C || unit == 0x0D
            if unit >= 0x20 || hasShortEscape
                || (digits..<(digits + 4)).contains(where: {
                    (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(bytes[$0])
                })
            {
                canonical = false
            }
            if (0xD800...0xDBFF).contains(unit) {
                guard current == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") else {
                    throw failure("a lone UTF-16 surrogate in a \\u escape")
                }
                i += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("a lone UTF-16 surrogate in a \\u escape") }
                unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw failure("a lone UTF-16 surrogate in a \\u escape")
            }
            guard let scalar = Unicode.Scalar(unit) else { throw failure("an invalid \\u escape") }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw failure("an unknown escape \\\(Character(Unicode.Scalar(b)))")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw failure("a \\u escape needs four hex digits") }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hex digits")
            }
            unit = unit << 4 | UInt32(digit)
            i += 1
        }
        return unit
    }
}
