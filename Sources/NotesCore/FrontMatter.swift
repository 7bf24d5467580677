import Foundation
import Yams

/// The YAML front matter of a Markdown note, read with Yams (what Obsidian, Joplin and most
/// notes apps write: lists, quoted and plain scalars, comments) and written back as YAML that
/// Yams reads to the same values.
public enum FrontMatter {
    /// Why a block could not be read, with its line in the file (counted from 1).
    public struct Failure: Error, Equatable {
        public var line: Int
        public var message: String
    }

    /// Limits that keep a hostile file from exhausting the stack or memory: a block larger than
    /// `maxBytes`, nested deeper than `maxDepth`, or expanding (through YAML aliases) to more
    /// than `maxNodes` values is refused.
    static let maxBytes = 256 * 1024
    static let maxDepth = 32
    static let maxNodes = 20_000

    /// One top-level key: its value as JSON, the scalar's text as written when the value is a
    /// scalar and not null (`012` stays `012`), and its line in the file.
    public struct Entry: Sendable {
        public var key: String
        public var value: JSONValue
        public var text: String?
        public var line: Int
    }

    /// The top-level keys of `yaml` in file order; `firstLine` is the line of the file the block
    /// starts on, for messages. An empty block has no keys.
    public static func entries(_ yaml: String, firstLine: Int) throws -> [Entry] {
        try lineEntries(yaml, firstLine: firstLine) ?? entries(yaml, firstLine: firstLine, resolver: resolver)
    }

    /// The YAML types `json` tells apart (null, bool, int); a plain scalar of any other type
    /// (float, timestamp, `<<`, `=`) is read as its text either way. Yams resolves a scalar's
    /// type by trying each rule's regular expression in turn, again each time the type is
    /// asked for (its duplicate-key check hashes every key by type): a plain string went through
    /// all seven of the default rules, a fifth of a Markdown folder's import. Bool and int come
    /// before the others in Yams's default order and nothing null matches is matched by the
    /// rules left out, so every scalar gets the type it got with `.default` among these three
    /// (`FrontMatterTests` checks it against `.default`).
    static let resolver = Resolver.default.removing(.float).removing(.merge).removing(.timestamp).removing(.value)

    static func entries(_ yaml: String, firstLine: Int, resolver: Resolver) throws -> [Entry] {
        guard yaml.utf8.count <= maxBytes else {
            throw Failure(line: firstLine, message: "the front matter is larger than \(maxBytes / 1024) KB")
        }
        if let line = tooDeep(yaml) {
            throw Failure(line: firstLine + line, message: "the front matter nests deeper than \(maxDepth) levels")
        }
        let root: Node?
        do {
            // UTF-8, as Yams picks for a native string, named so that it does not read the
            // environment (YAMS_DEFAULT_ENCODING) per file.
            root = try Yams.compose(yaml: yaml, resolver, .default, .utf8)
        } catch let error as YamlError {
            throw describe(error, firstLine: firstLine)
        } catch {
            throw Failure(line: firstLine, message: "not YAML")
        }
        guard let root else { return [] }
        if case .scalar(let scalar) = root, scalar.style == .plain || scalar.style == .any,
            root.tag.rawValue == Tag.Name.null.rawValue
        {
            return []
        }
        guard case .mapping(let mapping) = root else {
            throw Failure(
                line: firstLine + (root.mark?.line ?? 1) - 1, message: "expected `key: value` lines")
        }
        var budget = maxNodes
        // Yams drops a leading U+FEFF from every scalar (it decodes with Foundation, which takes
        // it for a byte order mark); `source` puts it back where the file has one.
        let source = BOMSource(yaml)
        var out: [Entry] = []
        for (key, value) in mapping {
            let line = firstLine + (key.mark?.line ?? 1) - 1
            guard case .scalar(let keyScalar) = key else {
                throw Failure(line: line, message: "a key must be text")
            }
            do {
                let json = try json(value, depth: 0, budget: &budget, source: source)
                let text = json == .null ? nil : value.scalar.map { source.string(of: $0) }
                out.append(Entry(key: keyScalar.string, value: json, text: text, line: line))
            } catch let failure as Failure {
                throw Failure(line: line, message: "\(keyScalar.string): \(failure.message)")
            } catch {
                throw Failure(line: line, message: "\(keyScalar.string): \(error)")
            }
        }
        return out
    }

    /// The value as JSON: a plain scalar by its YAML type (null, bool, an integer that fits in
    /// 64 bits), any other scalar as its text (dates and decimals included), lists and maps.
    static func json(_ node: Node, depth: Int, budget: inout Int, source: BOMSource) throws -> JSONValue {
        budget -= 1
        guard budget >= 0 else { throw Failure(line: 0, message: "too many values (YAML aliases?)") }
        guard depth < maxDepth else { throw Failure(line: 0, message: "nested too deep") }
        switch node {
        case .scalar(let scalar):
            guard scalar.style == .plain || scalar.style == .any else { return .string(source.string(of: scalar)) }
            switch node.tag.rawValue {
            case Tag.Name.null.rawValue: return .null
            case Tag.Name.bool.rawValue: return .bool(["true", "yes", "on", "y"].contains(scalar.string.lowercased()))
            case Tag.Name.int.rawValue: return Int64(scalar.string).map(JSONValue.int) ?? .string(scalar.string)
            default: return .string(scalar.string)
            }
        case .sequence(let sequence):
            var items: [JSONValue] = []
            for item in sequence { items.append(try json(item, depth: depth + 1, budget: &budget, source: source)) }
            return .array(items)
        case .mapping(let mapping):
            var object: [String: JSONValue] = [:]
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else { throw Failure(line: 0, message: "a key must be text") }
                object[keyScalar.string] = try json(value, depth: depth + 1, budget: &budget, source: source)
            }
            return .object(object)
        case .alias:
            return .null
        }
    }

    /// The lines of a block that has a U+FEFF in it (raw or as `\uFEFF`), to restore the one
    /// Yams drops at the start of a quoted scalar.
    struct BOMSource {
        let lines: [[Unicode.Scalar]]?

        init(_ yaml: String) {
            let hasBOM =
                yaml.unicodeScalars.contains("\u{FEFF}") || Self.contains(yaml, "\\uFEFF")
                || Self.contains(yaml, "\\ufeff")
            lines =
                hasBOM
                ? yaml.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) } : nil
        }

        /// By scalar: `String.contains` matches characters, and `\uFEFF` followed by a
        /// combining mark ends in another character than `F`.
        static func contains(_ text: String, _ part: String) -> Bool {
            let scalars = Array(text.unicodeScalars)
            let needle = Array(part.unicodeScalars)
            guard needle.count <= scalars.count else { return false }
            return (0...(scalars.count - needle.count)).contains {
                scalars[$0..<($0 + needle.count)].elementsEqual(needle)
            }
        }

        func string(of scalar: Node.Scalar) -> String {
            guard let lines, let mark = scalar.mark, scalar.style == .doubleQuoted || scalar.style == .singleQuoted,
                mark.line >= 1, mark.line <= lines.count
            else { return scalar.string }
            let line = lines[mark.line - 1]
            let start = mark.column  // the character after the opening quote (columns count from 1)
            guard start >= 1, start < line.count else { return scalar.string }
            let rest = line[start...]
            let leading =
                rest.first == "\u{FEFF}"
                || (scalar.style == .doubleQuoted && rest.starts(with: "\\uFEFF".unicodeScalars)
                    || rest.starts(with: "\\ufeff".unicodeScalars))
            // Foundation drops exactly one.
            guard leading else { return scalar.string }
            return "\u{FEFF}" + scalar.string
        }
    }

    /// The line (from 0) where brackets or indentation nest past `maxDepth`, else nil: checked
    /// before Yams composes the tree recursively. Brackets inside a quoted scalar (one whose
    /// quote opens it, after `: `, `- `, `[`, `{`, `,` or indentation) do not count.
    static func tooDeep(_ yaml: String) -> Int? {
        var depth = 0
        var line = 0
        var indent = 0
        var atLineStart = true
        var quote: UInt8?
        var escaped = false
        var previous: UInt8 = 0x20
        for byte in yaml.utf8 {
            defer { previous = byte }
            if byte == 0x0A {
                line += 1
                indent = 0
                atLineStart = true
                continue
            }
            if let open = quote {
                if escaped {
                    escaped = false
                } else if open == 0x22, byte == 0x5C {
                    escaped = true
                } else if byte == open {
                    quote = nil
                }
                continue
            }
            if byte == 0x20, atLineStart {
                indent += 1
                if indent > maxDepth * 8 { return line }
                continue
            }
            atLineStart = false
            switch byte {
            case 0x22 where [0x20, 0x5B, 0x7B, 0x2C, 0x3A, 0x2D].contains(previous): quote = byte
            case 0x27 where [0x20, 0x5B, 0x7B, 0x2C, 0x3A, 0x2D].contains(previous): quote = byte
            case 0x5B, 0x7B: depth += 1
            case 0x5D, 0x7D: depth -= 1
            default: break
            }
            if depth > maxDepth { return line }
        }
        return nil
    }

    private static func describe(_ error: YamlError, firstLine: Int) -> Failure {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return Failure(line: firstLine + max(mark.line, 1) - 1, message: "not YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return Failure(
                line: firstLine + max(context.mark.line, 1) - 1,
                message: "a key appears twice: \(duplicates.joined(separator: ", "))")
        case .reader(let problem, _, _, _):
            return Failure(line: firstLine, message: "not YAML: \(problem)")
        default:
            return Failure(line: firstLine, message: "not YAML")
        }
    }
}

extension FrontMatter {
    /// A date as notes apps write it: ISO 8601 with or without a time and an offset, and with a
    /// space for the `T` (`2024-01-15 10:30`, Joplin's `2024-01-15 10:30:00Z`); a time without
    /// an offset is taken as UTC. Nil for anything else.
    public static func date(_ text: String) -> Date? {
        let trimmed = Whitespace.trimmed(text)
        // The form exports write (`2025-06-30T05:15:55Z`: twenty ASCII characters, no space, and
        // seconds after the minutes) needs none of the rewriting below, which copied each
        // date's characters twice.
        let bytes = Array(trimmed.utf8)
        if bytes.count == 20, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x80 }),
            !(bytes[10] == 0x54 && bytes[13] == 0x3A && bytes[16] != 0x3A)
        {
            return ISODate.parse(trimmed)
        }
        var scalars = Array(trimmed.unicodeScalars)
        // `YYYY-MM-DD HH:mm…` → `YYYY-MM-DDTHH:mm…`
        if scalars.count > 11, scalars[10] == " " { scalars[10] = "T" }
        // A space before the zone (`10:30:00 Z`, `10:30 +01:00`).
        if let space = scalars.lastIndex(of: " "), space > 10, space + 1 < scalars.count,
            ["Z", "+", "-"].contains(scalars[space + 1])
        {
            scalars.remove(at: space)
        }
        // `THH:mm` without seconds: add them.
        if scalars.count >= 16, scalars[10] == "T", scalars[13] == ":",
            scalars.count == 16 || !(scalars[16] == ":")
        {
            scalars.insert(contentsOf: ":00".unicodeScalars, at: 16)
        }
        var string = ""
        string.unicodeScalars.append(contentsOf: scalars)
        return ISODate.parse(string)
    }

    /// `text` as a YAML double-quoted scalar that reads back byte for byte: escapes for `"`,
    /// `\`, controls, and every character YAML does not allow raw or reads as a line break
    /// (NEL, U+2028, U+2029) or drops (a byte order mark).
    public static func quoted(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("\"")
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch v {
            case 0x22: out.append(contentsOf: "\\\"".unicodeScalars)
            case 0x5C: out.append(contentsOf: "\\\\".unicodeScalars)
            case 0x0A: out.append(contentsOf: "\\n".unicodeScalars)
            case 0x0D: out.append(contentsOf: "\\r".unicodeScalars)
            case 0x09: out.append(contentsOf: "\\t".unicodeScalars)
            case 0x20...0x7E, 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...:
                out.append(scalar)
            default:
                let hex = String(v, radix: 16, uppercase: true)
                let (prefix, width) = v <= 0xFF ? ("\\x", 2) : v <= 0xFFFF ? ("\\u", 4) : ("\\U", 8)
                out.append(contentsOf: (prefix + String(repeating: "0", count: width - hex.count) + hex).unicodeScalars)
            }
        }
        out.append("\"")
        return String(out)
    }

    /// A key as YAML: plain when it is a simple word (`aliases`, `date created`), else quoted.
    public static func key(_ key: String) -> String {
        let simple =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy {
                ($0.properties.isAlphabetic || ("0"..."9").contains($0)) || "_- ".unicodeScalars.contains($0)
            }
            && key.unicodeScalars.first.map { $0.properties.isAlphabetic } == true && key.last != " "
        return simple ? key : quoted(key)
    }

    /// A JSON value as YAML flow (JSON with YAML-quoted strings), which Yams reads back to it.
    public static func flow(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .string(let s): return quoted(s)
        case .array(let items): return "[" + items.map(flow).joined(separator: ", ") + "]"
        case .object(let object):
            return "{"
                + object.sorted { $0.key < $1.key }.map { quoted($0.key) + ": " + flow($0.value) }
                .joined(separator: ", ") + "}"
        }
    }
}
