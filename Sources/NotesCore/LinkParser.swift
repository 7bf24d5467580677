/// Finds the links of a note's body (`NoteLink`). Text in fenced code blocks (```` ``` ````,
/// `~~~`) and inline code spans is not searched; links do not span lines. Linear in the body.
public enum LinkParser {
    /// The most links read from one body (a pathological note cannot blow up the index).
    public static let maxLinks = 10_000

    public static func links(in body: String) -> [NoteLink] {
        let bytes = Array(body.utf8)
        var links: [NoteLink] = []
        var i = 0
        var atLineStart = true
        var inFence = false
        while i < bytes.count, links.count < maxLinks {
            if atLineStart {
                atLineStart = false
                if startsFence(bytes, i) {
                    inFence.toggle()
                    i = lineEnd(bytes, i)
                    continue
                }
            }
            let byte = bytes[i]
            if byte == newline {
                atLineStart = true
                i += 1
                continue
            }
            if inFence {
                i = lineEnd(bytes, i)
                continue
            }
            if byte == backtick {
                // An inline code span: skip to its closing backtick on this line, if any.
                var j = i + 1
                while j < bytes.count, bytes[j] != backtick, bytes[j] != newline { j += 1 }
                i = j < bytes.count && bytes[j] == backtick ? j + 1 : i + 1
                continue
            }
            if byte == openBracket, i + 1 < bytes.count, bytes[i + 1] == openBracket {
                if let (link, end) = wikiLink(bytes, from: i + 2) {
                    // `![[diagram.png]]` embeds a file (an attachment), not a note.
                    let embedsFile = i > 0 && bytes[i - 1] == UInt8(ascii: "!") && isFileName(link.target)
                    if !embedsFile { links.append(link) }
                    i = end
                } else {
                    i += 2
                }
                continue
            }
            if byte == openBracket, let (link, end) = markdownLink(bytes, from: i + 1) {
                if let link { links.append(link) }
                i = end
                continue
            }
            i += 1
        }
        return links
    }

    /// A name with a short extension that is not a note's (`diagram.png`, not `Notes.md` or
    /// `Release 1.2 plan`): what `![[…]]` embeds as a file.
    public static func isFileName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        let ext = name[name.index(after: dot)...].lowercased()
        return (1...5).contains(ext.count) && ext.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            && ext.contains(where: \.isLetter) && !["md", "markdown"].contains(ext)
    }

    static let newline = UInt8(ascii: "\n")
    static let backtick = UInt8(ascii: "`")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")

    static func startsFence(_ bytes: [UInt8], _ i: Int) -> Bool {
        var j = i
        while j < bytes.count, j - i < 3, bytes[j] == UInt8(ascii: " ") { j += 1 }
        guard j + 2 < bytes.count else { return false }
        let mark = bytes[j]
        return (mark == backtick || mark == UInt8(ascii: "~")) && bytes[j + 1] == mark && bytes[j + 2] == mark
    }

    static func lineEnd(_ bytes: [UInt8], _ i: Int) -> Int {
        var j = i
        while j < bytes.count, bytes[j] != newline { j += 1 }
        return j
    }

    /// `[[target#heading|shown]]` starting after `[[`; the link and the index after `]]`.
    static func wikiLink(_ bytes: [UInt8], from start: Int) -> (NoteLink, Int)? {
        var j = start
        while j + 1 < bytes.count, !(bytes[j] == closeBracket && bytes[j + 1] == closeBracket) {
            if bytes[j] == newline || bytes[j] == openBracket { return nil }
            j += 1
        }
        guard j + 1 < bytes.count else { return nil }
        let inner = start..<j
        let bar = inner.first { bytes[$0] == UInt8(ascii: "|") }
        let linkPart = start..<(bar ?? j)
        let hash = linkPart.first { bytes[$0] == UInt8(ascii: "#") }
        let targetPart = trimmed(bytes, start..<(hash ?? linkPart.upperBound))
        guard !targetPart.isEmpty else { return nil }
        var target = text(bytes, targetPart)
        var targetRange = targetPart
        var folder: String?
        if let slash = targetPart.last(where: { bytes[$0] == UInt8(ascii: "/") }) {
            let name = trimmed(bytes, (slash + 1)..<targetPart.upperBound)
            guard !name.isEmpty else { return nil }
            folder = text(bytes, targetPart.lowerBound..<slash)
            target = text(bytes, name)
            targetRange = name
        }
        let heading = hash.map { text(bytes, trimmed(bytes, ($0 + 1)..<linkPart.upperBound)) }
        let shown = bar.map { text(bytes, ($0 + 1)..<j) }
        let link = NoteLink(
            kind: .wiki, target: target, folder: folder.flatMap { $0.isEmpty ? nil : $0 },
            heading: heading.flatMap { $0.isEmpty ? nil : $0 }, shown: shown, targetRange: targetRange,
            range: (start - 2)..<(j + 2))
        return (link, j + 2)
    }

    /// `[text](destination)` starting after `[`: nil when it is not a link at all; a nil link
    /// (with the index after it) when it is a link but not to a note's `.md` file.
    static func markdownLink(_ bytes: [UInt8], from start: Int) -> (NoteLink?, Int)? {
        var j = start
        while j < bytes.count, bytes[j] != closeBracket {
            if bytes[j] == newline || bytes[j] == openBracket { return nil }
            j += 1
        }
        guard j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: "(") else { return nil }
        let shown = text(bytes, start..<j)
        var k = j + 2
        let angled = k < bytes.count && bytes[k] == UInt8(ascii: "<")
        if angled { k += 1 }
        let destinationStart = k
        let stop: UInt8 = angled ? UInt8(ascii: ">") : UInt8(ascii: ")")
        while k < bytes.count, bytes[k] != stop, bytes[k] != newline, angled || bytes[k] != UInt8(ascii: " ") {
            k += 1
        }
        guard k < bytes.count, bytes[k] != newline else { return nil }
        let destination = destinationStart..<k
        var close = k
        while close < bytes.count, bytes[close] != UInt8(ascii: ")"), bytes[close] != newline { close += 1 }
        guard close < bytes.count, bytes[close] == UInt8(ascii: ")") else { return nil }
        let end = close + 1
        let hash = destination.first { bytes[$0] == UInt8(ascii: "#") }
        let path = destination.lowerBound..<(hash ?? destination.upperBound)
        let pathText = text(bytes, path)
        guard path.count > 3, pathText.lowercased().hasSuffix(".md"), !pathText.contains(":"),
            !pathText.hasPrefix("/")
        else { return (nil, end) }
        let slash = path.last { bytes[$0] == UInt8(ascii: "/") }
        let stem = (slash.map { $0 + 1 } ?? path.lowerBound)..<(path.upperBound - 3)
        guard !stem.isEmpty else { return (nil, end) }
        let folderParts = slash.map { text(bytes, path.lowerBound..<$0) }?.split(separator: "/")
            .map { decoded(String($0)) }.filter { $0 != "." && $0 != ".." && !$0.isEmpty }
        let heading = hash.map { decoded(text(bytes, ($0 + 1)..<destination.upperBound)) }
        let link = NoteLink(
            kind: .markdown, target: decoded(text(bytes, stem)),
            folder: folderParts.flatMap { $0.isEmpty ? nil : $0.joined(separator: "/") },
            heading: heading.flatMap { $0.isEmpty ? nil : $0 }, shown: shown, targetRange: stem,
            range: (start - 1)..<end)
        return (link, end)
    }

    static func trimmed(_ bytes: [UInt8], _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") { lower += 1 }
        while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") {
            upper -= 1
        }
        return lower..<upper
    }

    static func text(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// Percent-decoding (`%20` → space); text that is not valid percent-encoding stays as written.
    public static func decoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = hex(bytes[i + 1]),
                let low = hex(bytes[i + 2])
            {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self) ?? text
    }

    /// A title as a Markdown link's file name: spaces and characters that end or break a link
    /// destination percent-encoded, the rest as is.
    public static func encodedFileStem(_ title: String) -> String {
        var out = ""
        for scalar in title.unicodeScalars {
            switch scalar {
            case " ", "%", "(", ")", "<", ">", "#", "?", "[", "]", "/", "\\", "\"", "\t":
                out += "%" + String(UInt8(scalar.value), radix: 16, uppercase: true).leftPadded(to: 2)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
