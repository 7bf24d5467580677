import TerminalUI

/// Markdown's inline syntax as the preview shows it (D-165): `**bold**`,
/// `*italic*` and `_italic_`, `~~struck~~` (dim), `` `code` ``, `[text](url)` (the text
/// underlined, the address after it in brackets in the markup style), `![alt](src)`, `<https://…>`,
/// `[[wiki links]]` (as written, underlined) and backslash escapes. The delimiters go; every
/// other character of the text stays, in order. Text that is not well-formed stays as written.
///
/// The text must already be terminal-safe (`TerminalSafeText`): this only drops delimiters.
struct MarkdownInline {
    let theme: Theme

    /// Nesting deeper than this is shown as written (a line of `*_*_*_…` cannot recurse far).
    static let maxDepth = 16

    /// `text`'s spans, on top of `style`.
    func spans(_ text: some StringProtocol, style: Style = .plain) -> [PreviewSpan] {
        var out: [PreviewSpan] = []
        let characters = Array(text)
        render(characters[...], style: style, depth: 0, into: &out)
        return out
    }

    private func render(_ s: ArraySlice<Character>, style: Style, depth: Int, into out: inout [PreviewSpan]) {
        // Delimiters with no closer after some point of `s`: none after any later point either.
        var unclosed: Set<String> = []
        var i = s.startIndex
        while i < s.endIndex {
            let character = s[i]
            let next = i + 1 < s.endIndex ? s[i + 1] : nil
            switch character {
            case "\\" where next.map(Self.isEscapable) == true:
                out.add(String(s[i + 1]), style)
                i += 2
                continue
            case "`":
                let run = s[i...].prefix { $0 == "`" }.count
                if let close = backtickRun(run, in: s, from: i + run) {
                    var code = s[(i + run)..<close]
                    if code.count > 2, code.first == " ", code.last == " ", code.contains(where: { $0 != " " }) {
                        code = code.dropFirst().dropLast()
                    }
                    out.add(String(code), style.adding(theme.code))
                    i = close + run
                } else {
                    out.add(String(repeating: "`", count: run), style)
                    i += run
                }
                continue
            case "[" where next == "[":
                if let close = find("]]", in: s, from: i + 2), close > i + 2 {
                    out.add(String(s[i..<(close + 2)]), style.adding(theme.link))
                    i = close + 2
                    continue
                }
            case "!" where next == "[", "[":
                let start = character == "!" ? i + 1 : i
                if let link = link(in: s, at: start) {
                    if depth < Self.maxDepth {
                        render(
                            s[(start + 1)..<link.textEnd], style: style.adding(theme.link), depth: depth + 1, into: &out
                        )
                    } else {
                        out.add(String(s[(start + 1)..<link.textEnd]), style.adding(theme.link))
                    }
                    // The address stays in sight: a terminal cannot follow the link.
                    let url = Self.stripped(s[link.urlRange])
                    if !url.isEmpty { out.add(" (" + url + ")", style.adding(theme.markup)) }
                    i = link.end
                    continue
                }
            case "<":
                if let close = s[(i + 1)...].prefix(while: { $0 != " " && $0 != "<" }).firstIndex(of: ">"),
                    close > i + 1, s[(i + 1)..<close].contains(where: { $0 == ":" || $0 == "@" })
                {
                    out.add(String(s[(i + 1)..<close]), style.adding(theme.link))
                    i = close + 1
                    continue
                }
            case "*", "_", "~":
                if depth < Self.maxDepth, let emphasis = emphasis(in: s, at: i, unclosed: &unclosed) {
                    render(
                        s[(i + emphasis.width)..<emphasis.close], style: style.adding(emphasis.style), depth: depth + 1,
                        into: &out)
                    i = emphasis.close + emphasis.width
                    continue
                }
                // An unmatched run stays as written, whole (its second `*` is not an opener).
                let run = s[i...].prefix { $0 == character }.count
                out.add(String(repeating: String(character), count: run), style)
                i += run
                continue
            default:
                break
            }
            out.add(String(character), style)
            i += 1
        }
    }

    /// `*`, `_`, `**`, `__` or `~~` at `i` with its closer: the closer is preceded by a
    /// non-space, `_` does not open or close inside a word, and the text between is not empty.
    private func emphasis(in s: ArraySlice<Character>, at i: Int, unclosed: inout Set<String>)
        -> (width: Int, close: Int, style: Style)?
    {
        let character = s[i]
        let double = i + 1 < s.endIndex && s[i + 1] == character
        if character == "~" && !double { return nil }
        let width = double ? 2 : 1
        let delimiter = String(repeating: String(character), count: width)
        guard !unclosed.contains(delimiter), i + width < s.endIndex, !s[i + width].isWhitespace else { return nil }
        if character == "_", i > s.startIndex, s[i - 1].isLetter || s[i - 1].isNumber { return nil }
        var j = i + width + 1
        while j + width <= s.endIndex {
            defer { j += 1 }
            guard s[j] == character, !s[j - 1].isWhitespace else { continue }
            if double {
                guard s[j + 1] == character else { continue }
                // `***x***`: the closer is the run's last two, leaving `*x*` inside.
                var close = j
                while close + 2 < s.endIndex, s[close + 2] == character { close += 1 }
                if character == "_", close + 2 < s.endIndex, s[close + 2].isLetter || s[close + 2].isNumber {
                    continue
                }
                return (2, close, character == "~" ? Style().dim() : Style().bold())
            }
            // A single delimiter closes only on its own, not as part of a run.
            guard s[j - 1] != character, j + 1 == s.endIndex || s[j + 1] != character else { continue }
            if character == "_", j + 1 < s.endIndex, s[j + 1].isLetter || s[j + 1].isNumber { continue }
            return (1, j, Style().italic())
        }
        unclosed.insert(delimiter)
        return nil
    }

    /// `[text](url)` starting at `start` (its `[`): where the text ends (its `]`), the URL's
    /// range, and the index after the `)`.
    private func link(in s: ArraySlice<Character>, at start: Int)
        -> (textEnd: Int, urlRange: Range<Int>, end: Int)?
    {
        var depth = 0
        var i = start
        var textEnd: Int?
        while i < s.endIndex {
            switch s[i] {
            case "\\": i += 1
            case "[": depth += 1
            case "]":
                depth -= 1
                if depth == 0 { textEnd = i }
            default: break
            }
            if textEnd != nil { break }
            i += 1
        }
        guard let textEnd, textEnd + 1 < s.endIndex, s[textEnd + 1] == "(" else { return nil }
        var parens = 1
        var j = textEnd + 2
        while j < s.endIndex {
            if s[j] == "(" { parens += 1 }
            if s[j] == ")" {
                parens -= 1
                if parens == 0 { return (textEnd, (textEnd + 2)..<j, j + 1) }
            }
            j += 1
        }
        return nil
    }

    /// The index of the next run of exactly `count` backticks from `from`.
    private func backtickRun(_ count: Int, in s: ArraySlice<Character>, from: Int) -> Int? {
        var i = from
        while i < s.endIndex {
            guard s[i] == "`" else {
                i += 1
                continue
            }
            let run = s[i...].prefix { $0 == "`" }.count
            if run == count { return i }
            i += run
        }
        return nil
    }

    /// The index of the next `pattern` (two characters) from `from`.
    private func find(_ pattern: String, in s: ArraySlice<Character>, from: Int) -> Int? {
        let pair = Array(pattern)
        var i = from
        while i + 1 < s.endIndex {
            if s[i] == pair[0] && s[i + 1] == pair[1] { return i }
            i += 1
        }
        return nil
    }

    /// ASCII punctuation, which a backslash makes literal (CommonMark 2.4).
    static func isEscapable(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (0x21...0x2F).contains(ascii) || (0x3A...0x40).contains(ascii) || (0x5B...0x60).contains(ascii)
            || (0x7B...0x7E).contains(ascii)
    }

    /// `text` without leading and trailing spaces.
    static func stripped(_ text: some Collection<Character>) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
