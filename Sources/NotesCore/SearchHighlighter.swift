/// Finds where folded search terms occur in original text, in Character offsets, for
/// highlighting matches and choosing a snippet (ARCHITECTURE §5).
public enum SearchHighlighter {
    /// Character ranges of `text` where any of `terms` (already folded) occurs, merged and sorted.
    public static func ranges(of terms: [String], in text: String) -> [Range<Int>] {
        var folder = TextFolding.Folder(tableAfter: .max)
        return ranges(of: terms, in: text, folder: &folder)
    }

    /// `ranges(of:in:)` folding in `folder` (one for many texts: it learns each scalar's fold
    /// once).
    public static func ranges(of terms: [String], in text: String, folder: inout TextFolding.Folder) -> [Range<Int>] {
        guard terms.contains(where: { !$0.isEmpty }), !text.isEmpty else { return [] }
        // Plain ASCII without CR: one byte is one Character is one folded scalar.
        if isASCIIWithoutCR(text.utf8) {
            return merge(byteMatches(of: terms, in: TextFolding.foldedUTF8(text)))
        }
        return ranges(of: terms, in: text, starts: characterStarts(text), folder: &folder)
    }

    /// Whether `bytes` are ASCII without a carriage return: each byte is then a Character, and
    /// folds to one byte.
    @inline(__always)
    static func isASCIIWithoutCR(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }

    /// Byte ranges of `folded` where each term's UTF-8 occurs (a term's own matches do not
    /// overlap), term after term.
    static func byteMatches(of terms: [String], in folded: [UInt8]) -> [Range<Int>] {
        folded.withUnsafeBufferPointer { byteMatches(of: terms, in: $0) }
    }

    /// `byteMatches(of:in:)` in bytes read where they lie.
    static func byteMatches(of terms: [String], in folded: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var found: [Range<Int>] = []
        for term in terms where !term.isEmpty {
            let needle = Array(term.utf8)
            var from = 0
            while let i = ByteSearch.firstIndex(of: needle, in: folded, from: from) {
                found.append(i..<(i + needle.count))
                from = i + needle.count
            }
        }
        return found
    }

    /// `ranges(of:in:)` for any text, given where its Characters start (`characterStarts`).
    ///
    /// The text is folded scalar by scalar into UTF-8 bytes, each byte noting where its scalar
    /// starts in the text (`Folder.foldNotingSources`), and each term's bytes are searched in
    /// them. A match of a term's whole UTF-8 starts and ends on scalar boundaries (a lead byte
    /// never equals a continuation byte), so the matches are those of its scalars in the folded
    /// scalars; each is mapped to the Characters its first and last scalars belong to. (Folding
    /// Character by Character into arrays of scalars, and cutting by an array of Characters, was
    /// 45% of a search that prints every match of `wor` at 100k notes, whose lines are mostly
    /// not ASCII; folding each line's scalars through a dictionary of its own, a tenth.)
    static func ranges(
        of terms: [String], in text: String, starts: [Int], folder: inout TextFolding.Folder
    ) -> [Range<Int>] {
        var text = text
        return text.withUTF8 { bytes in
            // Never false for a String's bytes.
            guard folder.foldNotingSources(bytes) else { return [] }
            return merge(characterMatches(of: terms, starts: starts, folder: folder))
        }
    }

    /// The Characters of each match of `terms` in `folder`'s text, the fold of a text whose
    /// Characters start at `starts` (sources noted: `Folder.noteSources`).
    static func characterMatches(of terms: [String], starts: [Int], folder: TextFolding.Folder) -> [Range<Int>] {
        folder.withFolded { byteMatches(of: terms, in: $0) }.map { match in
            let first = character(at: folder.source(ofFolded: match.lowerBound), starts)
            let last = character(at: folder.source(ofFolded: match.upperBound - 1), starts)
            return first..<last + 1
        }
    }

    /// The index of the Character that holds UTF-8 offset `offset`: the last of `starts` (where
    /// each starts, ascending, the first 0) at or before it.
    static func character(at offset: Int, _ starts: [Int]) -> Int {
        var low = 0
        var high = starts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle } else { high = middle }
        }
        return low
    }

    /// The UTF-8 offset where each Character of `text` starts, in order: each scalar's, when
    /// every scalar is a Character of its own (`SingleScalarCharacters`), else by a walk of
    /// the Characters.
    static func characterStarts(_ text: String) -> [Int] {
        var text = text
        if let starts = text.withUTF8(SingleScalarCharacters.characterStarts) { return starts }
        var starts: [Int] = []
        starts.reserveCapacity(text.utf8.count)
        var offset = 0
        var previous = text.startIndex
        for index in text.indices {
            offset += text.utf8.distance(from: previous, to: index)
            starts.append(offset)
            previous = index
        }
        return starts
    }

    static func merge(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }

    /// Line `number` (counting from 0, split at LF only, without a CR before the LF) of `text`,
    /// found on its UTF-8 bytes.
    static func line(_ number: Int, of text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var range = lineRange(number, in: bytes)
            // A CRLF line ends before its CR: a snippet must not show a carriage return.
            if !range.isEmpty, bytes[range.upperBound - 1] == 0x0D { range = range.dropLast() }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
    }

    /// Where line `number` of `text` lies (counting from 0, split at LF only), without its LF;
    /// the last line when there are fewer.
    public static func lineRange(_ number: Int, in text: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = 0
        var remaining = number
        while remaining > 0, let newline = text[start...].firstIndex(of: 0x0A) {
            start = newline + 1
            remaining -= 1
        }
        return start..<(text[start...].firstIndex(of: 0x0A) ?? text.count)
    }

    /// The body line with the first match, cut to about `width` characters around it, and the
    /// match ranges within it; nil when no term occurs in `body`.
    ///
    /// Lines are folded one at a time until one holds a term, and searched as bytes; only that
    /// line is mapped back to characters. The fold is context-free and never creates or removes
    /// a line feed, so the first folded line with a match is the line of the first match in
    /// the folded whole, and a match early in a long note folds only the lines before it.
    public static func snippet(of body: String, terms: [String], width: Int = 80) -> (
        text: String, matches: [Range<Int>]
    )? {
        var folder = TextFolding.Folder(tableAfter: .max)
        return snippet(of: body, terms: terms, width: width, folder: &folder)
    }

    /// `snippet(of:terms:width:)` folding the lines in `folder` (one for many bodies: a page of
    /// search results folds every body into one buffer, and learns each scalar's fold once).
    public static func snippet(
        of body: String, terms: [String], width: Int = 80, folder: inout TextFolding.Folder
    ) -> (text: String, matches: [Range<Int>])? {
        var body = body
        return body.withUTF8 { snippet(ofUTF8: $0, terms: terms, width: width, folder: &folder) }
    }

    /// `snippet(of:terms:width:folder:)` of a body given as its UTF-8 bytes, read where they lie
    /// (a search reads them in SQLite's row): only the line shown becomes a String. Bytes that
    /// are not UTF-8 are read as `String(decoding:as:)` repairs them, line by line (a repair
    /// never touches a line feed).
    public static func snippet(
        ofUTF8 bytes: UnsafeBufferPointer<UInt8>, terms: [String], width: Int = 80, folder: inout TextFolding.Folder
    ) -> (text: String, matches: [Range<Int>])? {
        let needles = terms.filter { !$0.isEmpty }.map { Array($0.utf8) }
        guard !needles.isEmpty else { return nil }
        // A term with a line feed in it matches across lines: the whole body is folded and the
        // line of the first match is the one shown.
        if needles.contains(where: { $0.contains(0x0A) }) {
            let body = String(decoding: bytes, as: UTF8.self)
            let folded = TextFolding.foldedUTF8(body)
            guard let first = needles.compactMap({ ByteSearch.firstIndex(of: $0, in: folded) }).min() else {
                return nil
            }
            let lineNumber = folded[..<first].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            return snippet(inLine: line(lineNumber, of: body), terms: terms, width: width, folder: &folder)
        }
        var start = 0
        while true {
            let newline = bytes[start...].firstIndex(of: 0x0A)
            var end = newline ?? bytes.count
            let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
            let holds = { (folded: UnsafeBufferPointer<UInt8>) in
                needles.contains { ByteSearch.firstIndex(of: $0, in: folded) != nil }
            }
            let folded = folder.fold(text)
            let matched =
                folded
                ? folder.withFolded(holds)
                : TextFolding.foldedUTF8(String(decoding: text, as: UTF8.self)).withUnsafeBufferPointer(holds)
            if matched {
                if folded, let cut = snippet(ofFoldedLine: text, terms: terms, width: width, folder: &folder) {
                    return cut
                }
                // A CRLF line ends before its CR: a snippet must not show a carriage return.
                if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                return snippet(inLine: line, terms: terms, width: width, folder: &folder)
            }
            guard let newline else { return nil }
            start = newline + 1
        }
    }

    /// The snippet of a line whose fold `folder` holds (`fold(line)` last), cut by its bytes
    /// when each of its scalars is a Character (ASCII, or `SingleScalarCharacters`): the matches
    /// are found in that fold, and no String is made but the snippet's (the line was made a
    /// String and folded a second time to find them). Nil for any other line (one with a
    /// carriage return among them), which `snippet(inLine:)` cuts by its Characters.
    static func snippet(
        ofFoldedLine line: UnsafeBufferPointer<UInt8>, terms: [String], width: Int, folder: inout TextFolding.Folder
    ) -> (text: String, matches: [Range<Int>])? {
        func text(_ bytes: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: line[bytes]), as: UTF8.self)
        }
        if isASCIIWithoutCR(line) {
            // A byte is a Character, and folds to one byte.
            let matches = merge(folder.withFolded { byteMatches(of: terms, in: $0) })
            return cut(matches, count: line.count, width: width, text)
        }
        guard let starts = SingleScalarCharacters.characterStarts(line), folder.noteSources(of: line) else {
            return nil
        }
        let matches = merge(characterMatches(of: terms, starts: starts, folder: folder))
        return cut(matches, count: starts.count, width: width) { characters in
            let end = characters.upperBound < starts.count ? starts[characters.upperBound] : line.count
            return text(starts[characters.lowerBound]..<end)
        }
    }

    /// The snippet of `text`, the line that holds the first match.
    static func snippet(inLine text: String, terms: [String], width: Int) -> (
        text: String, matches: [Range<Int>]
    )? {
        var folder = TextFolding.Folder(tableAfter: .max)
        return snippet(inLine: text, terms: terms, width: width, folder: &folder)
    }

    /// `snippet(inLine:terms:width:)` folding in `folder`.
    static func snippet(inLine text: String, terms: [String], width: Int, folder: inout TextFolding.Folder) -> (
        text: String, matches: [Range<Int>]
    )? {
        // Printable ASCII (and tabs, controls other than CR): one byte is one Character, so the
        // line is cut by its bytes; the Characters of a long line were a fifth of a search
        // that prints every match (`SearchHighlighterTests` compares both paths).
        if isASCIIWithoutCR(text.utf8) {
            let bytes = Array(text.utf8)
            return cut(ranges(of: terms, in: text, folder: &folder), count: bytes.count, width: width) {
                String(decoding: bytes[$0], as: UTF8.self)
            }
        }
        return snippetByCharacter(inLine: text, terms: terms, width: width, folder: &folder)
    }

    /// `snippet(inLine:)` by the line's Characters: what any line takes. A range of Characters
    /// is cut from the line's bytes, where the Characters start.
    static func snippetByCharacter(
        inLine text: String, terms: [String], width: Int, folder: inout TextFolding.Folder
    ) -> (text: String, matches: [Range<Int>])? {
        let starts = characterStarts(text)
        let utf8 = text.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        return cut(ranges(of: terms, in: text, starts: starts, folder: &folder), count: starts.count, width: width) {
            range in
            let end = range.upperBound < starts.count ? starts[range.upperBound] : utf8.count
            return String(Substring(utf8[index(starts[range.lowerBound])..<index(end)]))
        }
    }

    /// About `width` characters of a line of `count` around the first of `found`, with "…" where
    /// it was cut, and the matches within it; `text` gives a range of the line's characters.
    static func cut(
        _ found: [Range<Int>], count: Int, width: Int, _ text: (Range<Int>) -> String
    ) -> (text: String, matches: [Range<Int>])? {
        guard let first = found.first else { return nil }
        var start = max(0, first.lowerBound - width / 4)
        if count - start < width { start = max(0, count - width) }
        let end = min(count, start + width)
        var snippet = text(start..<end)
        var shift = start
        if start > 0 {
            snippet = "…" + snippet
            shift -= 1
        }
        if end < count { snippet += "…" }
        let inside = found.compactMap { r -> Range<Int>? in
            let lo = max(r.lowerBound, start)
            let hi = min(r.upperBound, end)
            return lo < hi ? (lo - shift)..<(hi - shift) : nil
        }
        return (snippet, inside)
    }
}
