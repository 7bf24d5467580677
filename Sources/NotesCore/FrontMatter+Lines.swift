/// The front matter most files carry, read without Yams (D-225): one `key: value` line per key,
/// each value empty, a single-line quoted scalar without escapes, a plain scalar that cannot be
/// mistaken for another YAML type, or a one-line list of those. What CloudNotes, Obsidian and
/// Joplin write for ids, titles, dates, flags and tags is this shape, and Yams composing a node
/// tree, resolving each scalar's type by regular expressions and hashing every key for its
/// duplicate check was two fifths of a Markdown folder's import. Any other block (comments,
/// indentation, escapes, anchors, block lists, a key twice, a value that could be a number or a
/// boolean in another spelling) gives nil and goes to Yams, which then gives the same entries
/// or the same error: `FrontMatterTests` checks this reading against Yams's over random blocks.
extension FrontMatter {
    static func lineEntries(_ yaml: String, firstLine: Int) -> [Entry]? {
        let bytes = Array(yaml.utf8)
        guard !bytes.isEmpty, bytes.count <= maxBytes else { return nil }
        var out: [Entry] = []
        var start = 0
        var line = firstLine
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            guard let entry = entry(bytes[start..<end], line: line), !out.contains(where: { $0.key == entry.key })
            else { return nil }
            out.append(entry)
            start = end + 1
            line += 1
        }
        return out
    }

    /// `key: value` at the start of the line: the key a letter or `_` then letters, digits, `_`
    /// and `-`; a space or the line's end after the colon.
    private static func entry(_ line: ArraySlice<UInt8>, line number: Int) -> Entry? {
        var i = line.startIndex
        guard i < line.endIndex, isASCIILetter(line[i]) || line[i] == 0x5F else { return nil }
        while i < line.endIndex, isASCIILetter(line[i]) || isDigit(line[i]) || line[i] == 0x5F || line[i] == 0x2D {
            i += 1
        }
        guard i < line.endIndex, line[i] == 0x3A else { return nil }
        let key = String(decoding: line[line.startIndex..<i], as: UTF8.self)
        i += 1
        guard i == line.endIndex || line[i] == 0x20 else { return nil }
        var end = line.endIndex
        while i < end, line[i] == 0x20 { i += 1 }
        while end > i, line[end - 1] == 0x20 { end -= 1 }
        let value = line[i..<end]
        if value.isEmpty { return Entry(key: key, value: .null, text: nil, line: number) }
        if value.first == 0x5B {
            guard let items = list(value) else { return nil }
            return Entry(key: key, value: .array(items), text: nil, line: number)
        }
        guard let (json, text) = scalar(value, inList: false) else { return nil }
        return Entry(key: key, value: json, text: json == .null ? nil : text, line: number)
    }

    /// `[a, "b", 3]` on one line: plain or quoted items without brackets, braces or commas
    /// in them.
    private static func list(_ value: ArraySlice<UInt8>) -> [JSONValue]? {
        guard value.count >= 2, value.last == 0x5D else { return nil }
        let inner = value[(value.startIndex + 1)..<(value.endIndex - 1)]
        if inner.allSatisfy({ $0 == 0x20 }) { return [] }
        var items: [JSONValue] = []
        for part in inner.split(separator: 0x2C, omittingEmptySubsequences: false) {
            var start = part.startIndex
            var end = part.endIndex
            while start < end, part[start] == 0x20 { start += 1 }
            while end > start, part[end - 1] == 0x20 { end -= 1 }
            guard start < end, let (json, _) = scalar(part[start..<end], inList: true) else { return nil }
            items.append(json)
        }
        return items
    }

    /// A scalar as `json` reads it, and its text: quoted without escapes or its own quote
    /// inside; plain when it starts with a letter, a digit or a non-ASCII character, holds no
    /// `#`, no `: ` and does not end in `:` (in a list: no `:` and no `[]{},`), and resolves to
    /// one type whatever the spelling (`true` and `false`, decimal integers, strings that no
    /// null, bool or int rule matches).
    private static func scalar(_ bytes: ArraySlice<UInt8>, inList: Bool) -> (JSONValue, String)? {
        guard let first = bytes.first, let last = bytes.last else { return nil }
        if first == 0x22 || first == 0x27 {
            guard bytes.count >= 2, last == first else { return nil }
            let inner = bytes[(bytes.startIndex + 1)..<(bytes.endIndex - 1)]
            guard !inner.contains(first), !inner.contains(0x5C), isPrintable(inner) else { return nil }
            if inList, inner.contains(where: { $0 == 0x2C || $0 == 0x5B || $0 == 0x5D }) { return nil }
            let text = String(decoding: inner, as: UTF8.self)
            return (.string(text), text)
        }
        guard isASCIILetter(first) || isDigit(first) || first >= 0x80, isPrintable(bytes) else { return nil }
        for (offset, byte) in zip(bytes.indices, bytes) {
            switch byte {
            case 0x23: return nil  // `#`
            case 0x3A:  // `:` ends a key before a space or the end, and marks a map in a list
                if inList || offset + 1 == bytes.endIndex || bytes[offset + 1] == 0x20 { return nil }
            case 0x2C, 0x5B, 0x5D, 0x7B, 0x7D: if inList { return nil }
            default: break
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if isDigit(first) {
            if bytes.allSatisfy(isDigit) {
                // `012` is octal to YAML 1.1, and a number past 64 bits is text to `json`.
                guard first != 0x30 || bytes.count == 1, bytes.count <= 18, let number = Int64(text) else { return nil }
                return (.int(number), text)
            }
            // Every YAML int (`0x1F`, `0b101`, `0o17`, `1_000`, `1:30`) is made of these.
            let intLike = bytes.allSatisfy { isDigit($0) || isHexLetter($0) || "xXoO_:".utf8.contains($0) }
            return intLike ? nil : (.string(text), text)
        }
        if bytes.count <= 5 {
            switch text.lowercased() {
            case "true" where text == "true": return (.bool(true), text)
            case "false" where text == "false": return (.bool(false), text)
            case "yes", "no", "true", "false", "on", "off", "null", "y", "n": return nil
            default: break
            }
        }
        return (.string(text), text)
    }

    /// No control character (tab, CR, C1 and DEL included), line separator (NEL, U+2028,
    /// U+2029), byte order mark or noncharacter U+FFFE/U+FFFF: the characters YAML reads
    /// raw as themselves. `bytes` is valid UTF-8 (a slice of a `String` at character bounds).
    private static func isPrintable(_ bytes: ArraySlice<UInt8>) -> Bool {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            if byte < 0x20 || byte == 0x7F { return false }
            if byte == 0xC2, i + 1 < bytes.endIndex, bytes[i + 1] < 0xA0 { return false }
            if byte == 0xE2, i + 2 < bytes.endIndex, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9
            {
                return false
            }
            if byte == 0xEF, i + 2 < bytes.endIndex,
                (bytes[i + 1] == 0xBB && bytes[i + 2] == 0xBF)
                    || (bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF))
            {
                return false
            }
            i += 1
        }
        return true
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isHexLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66 }
}
