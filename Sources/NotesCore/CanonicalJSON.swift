import Foundation

/// A JSON value with one canonical byte form: sorted keys, no whitespace, UTF-8, minimal escapes.
///
/// Revision ids hash these bytes (SYNC-FORMAT rules 3 and 6), so the encoding is ours and pinned,
/// not JSONEncoder's, whose output may change between toolchains. Numbers are integers only.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The canonical serialization.
    public var canonicalData: Data { Data(canonicalBytes) }

    public var canonicalString: String { String(decoding: canonicalBytes, as: UTF8.self) }

    /// The canonical UTF-8 bytes, written byte by byte (strings are copied through as UTF-8
    /// except for the characters JSON must escape).
    public var canonicalBytes: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let dict):
            out.append(UInt8(ascii: "{"))
            let members = dict.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ s: String, to out: inout [UInt8]) {
        func write(_ bytes: UnsafeBufferPointer<UInt8>) {
            out.reserveCapacity(out.count + bytes.count + 2)
            out.append(UInt8(ascii: "\""))
            // An index loop, not `enumerated()`: a debug build (the tests') did not specialise
            // the iterator and spent most of a sync's CPU making its tuples.
            var start = 0
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                    // Rebased: a buffer is appended by memcpy, a slice of one (generic, in a debug
                    // build) a byte at a time.
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                    appendEscape(byte, to: &out)
                    start = i + 1
                }
                i += 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            out.append(UInt8(ascii: "\""))
        }
        if s.utf8.withContiguousStorageIfAvailable(write) == nil {
            Array(s.utf8).withUnsafeBufferPointer(write)
        }
    }

    /// Appends the escape of `byte` byte by byte (an array literal per escape was an allocation
    /// per line feed of every body a sync writes).
    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: out.append(0x22)
        case 0x5C: out.append(0x5C)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            func hex(_ digit: UInt8) -> UInt8 { digit < 10 ? 0x30 + digit : 0x61 + digit - 10 }
            out.append(UInt8(ascii: "u"))
            out.append(0x30)
            out.append(0x30)
            out.append(hex(byte >> 4))
            out.append(hex(byte & 0xF))
        }
    }

    /// Parses JSON text strictly (`StrictJSONParser`): floats, out-of-range integers, trailing
    /// commas, repeated keys and invalid UTF-8 are rejected.
    public init(parsing data: Data) throws {
        self = try StrictJSONParser.parse(data)
    }

    /// Parses as `init(parsing:)` does and tells, from the same pass, whether `data` is exactly
    /// the value's canonical form (its `canonicalBytes`), which is then not encoded again to see.
    public static func parsingNotingForm(_ data: Data) throws -> (value: JSONValue, isCanonical: Bool) {
        try StrictJSONParser.parseNotingForm(data)
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
        // Each JSON kind tried in turn: a failed try is "not this kind"; none of them throws below.
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
        switch self {
        case .notCanonical(let m): return "invalid JSON value: \(m)"
        }
    }
}
