/// Finds where folded search terms occur in original text, in Character offsets, for
/// highlighting matches and choosing a snippet (DESIGN §5).
public enum SearchHighlighter {
    /// Character ranges of `text` where any of `terms` (already folded) occurs, merged and sorted.
    public static func ranges(of terms: [String], in text: String) -> [Range<Int>] {
        let needles = terms.map { Array($0.unicodeScalars) }.filter { !$0.isEmpty }
        guard !needles.isEmpty, !text.isEmpty else { return [] }
        var scalars: [Unicode.Scalar] = []
        var owner: [Int] = []
        for (index, folded) in TextFolding.foldedCharacters(text).enumerated() {
            scalars += folded
            owner += repeatElement(index, count: folded.count)
        }
        var found: [Range<Int>] = []
        for needle in needles where needle.count <= scalars.count {
            var i = 0
            while i + needle.count <= scalars.count {
                if scalars[i] == needle[0], Array(scalars[i..<(i + needle.count)]) == needle {
                    found.append(owner[i]..<(owner[i + needle.count - 1] + 1))
                    i += needle.count
                } else {
                    i += 1
                }
            }
        }
        return merge(found)
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

    /// The body line with the first match, cut to about `width` characters around it, and the
    /// match ranges within it; nil when no term occurs in `body`.
    public static func snippet(of body: String, terms: [String], width: Int = 80) -> (text: String, matches: [Range<Int>])? {
        for line in body.split(whereSeparator: \.isNewline) {
            let text = String(line)
            let found = ranges(of: terms, in: text)
            guard let first = found.first else { continue }
            let chars = Array(text)
            var start = max(0, first.lowerBound - width / 4)
            if chars.count - start < width { start = max(0, chars.count - width) }
            let end = min(chars.count, start + width)
            var snippet = String(chars[start..<end])
            var shift = start
            if start > 0 {
                snippet = "…" + snippet
                shift -= 1
            }
            if end < chars.count { snippet += "…" }
            let inside = found.compactMap { r -> Range<Int>? in
                let lo = max(r.lowerBound, start), hi = min(r.upperBound, end)
                return lo < hi ? (lo - shift)..<(hi - shift) : nil
            }
            return (snippet, inside)
        }
        return nil
    }
}
