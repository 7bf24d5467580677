import Foundation

/// A JSON value with one canonical byte form: sorted keys, no whitespace, UTF-8, minimal escapes.
///
/// Revision ids hash these bytes (DESIGN §3 rules 3 and 6), so the encoding is ours and pinned,
/// not JSONEncoder's, whose output may change between toolchains. Numbers are integers only.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The canonical serialization.
    public var canonicalData: Data { Data(canonicalString.utf8) }

    public var canonicalString: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let dict):
            out += "{"
            let keys = dict.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (i, key) in keys.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                dict[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// Parses JSON text; floats are rejected because the canonical form has none.
    public init(parsing data: Data) throws {
        if let number = Self.firstNonIntegerNumber(in: data) {
            throw JSONValueError.notCanonical("\(number) is not an integer; the canonical form has no fractions or exponents")
        }
        do {
            self = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch let error as DecodingError {
            throw JSONValueError.notCanonical(Self.describe(error))
        }
    }

    /// The first number token outside strings that has a fraction or an exponent (`1.0`, `1e2`):
    /// JSONDecoder would quietly turn those into integers.
    private static func firstNonIntegerNumber(in data: Data) -> String? {
        var inString = false
        var escaped = false
        var token: [UInt8] = []
        func finish() -> String? {
            defer { token.removeAll() }
            return token.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
                ? String(decoding: token, as: UTF8.self) : nil
        }
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
                token.append(byte)
            case UInt8(ascii: "e") where !token.isEmpty, UInt8(ascii: "E") where !token.isEmpty:
                token.append(byte)
            default:
                if let number = finish() { return number }
                if byte == UInt8(ascii: "\"") { inString = true }
            }
        }
        return finish()
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let c): return c.underlyingError.map { "\($0)" } ?? c.debugDescription
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c):
            return c.debugDescription
        @unknown default: return "\(error)"
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let d) = self { return d[key] }
        return nil
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var intValue: Int64? { if case .int(let i) = self { return i } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
}

extension JSONValue: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .int(i)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else if let o = try? c.decode([String: JSONValue].self) {
            self = .object(o)
        } else {
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "not an integer, string, bool, array or object")
        }
    }
}

public enum JSONValueError: Error, Equatable, CustomStringConvertible {
    case notCanonical(String)
    public var description: String {
        switch self { case .notCanonical(let m): return "invalid JSON value: \(m)" }
    }
}
