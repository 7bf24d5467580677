extension TextWidth {
    /// Where padding goes when text is narrower than its field.
    public enum Alignment: Sendable {
        case left, right, center
    }

    /// The longest prefix of `text` that fits in `columns`, never splitting a grapheme cluster
    /// or a wide character. With `ellipsis`, text that does not fit ends in "…" (1 column)
    /// within the same `columns`. The result may be one column narrower than `columns` when a
    /// wide character did not fit; `pad` fills that.
    @inlinable
    public static func clip(_ text: some StringProtocol, to columns: Int, ellipsis: Bool = false) -> String {
        clipMeasured(text, to: columns, ellipsis: ellipsis).text
    }

    /// `clip(text, to:ellipsis:)` and the columns it takes (its `width(of:)`), counted as it is
    /// cut: a row that pads its clipped title measured it a second time.
    @inlinable
    public static func clipMeasured(_ text: some StringProtocol, to columns: Int, ellipsis: Bool = false) -> (
        text: String, width: Int
    ) {
        guard columns > 0 else { return ("", 0) }
        let whole = width(of: text)
        if whole <= columns { return (String(text), whole) }
        let (end, used) = prefix(of: text, within: ellipsis ? columns - 1 : columns, width: width(of:))
        return withEllipsis(String(text[..<end]), used, ellipsis)
    }

    /// `clipMeasured(text, to:ellipsis:)` of text each of whose scalars is a Character of its
    /// own, which the caller knows (NotesCore's `SingleScalarCharacters`): measured and cut by
    /// its scalars, without the walk of its Characters (a tenth of the thread that writes the
    /// rows of a search that prints every match, for titles with an accent, CJK or an emoji).
    /// A Character of one scalar is as wide as the scalar.
    public static func clipMeasured(singleScalarCharacters text: String, to columns: Int, ellipsis: Bool = false) -> (
        text: String, width: Int
    ) {
        guard columns > 0 else { return ("", 0) }
        let scalars = text.unicodeScalars
        var whole = 0
        for scalar in scalars { whole += width(of: scalar) }
        if whole <= columns { return (text, whole) }
        let (end, used) = prefix(of: scalars, within: ellipsis ? columns - 1 : columns, width: width(of:))
        return withEllipsis(String(scalars[..<end]), used, ellipsis)
    }

    /// Where the longest prefix of `units` no wider than `budget` ends, and its width: the cut
    /// both clips make, by Characters or by scalars.
    @inlinable
    static func prefix<Units: Collection>(
        of units: Units, within budget: Int, width: (Units.Element) -> Int
    ) -> (end: Units.Index, used: Int) {
        var used = 0
        var end = units.startIndex
        while end < units.endIndex {
            let next = width(units[end])
            if used + next > budget { break }
            used += next
            units.formIndex(after: &end)
        }
        return (end, used)
    }

    /// A clipped `text` of `used` columns, and "…" (1 column) after it when `ellipsis`.
    @inlinable
    static func withEllipsis(_ text: String, _ used: Int, _ ellipsis: Bool) -> (text: String, width: Int) {
        ellipsis ? (text + "…", used + 1) : (text, used)
    }

    /// `text` clipped to `columns` and padded with spaces to exactly `columns` columns.
    public static func pad(
        _ text: some StringProtocol, to columns: Int, alignment: Alignment = .left, ellipsis: Bool = false
    ) -> String {
        guard columns > 0 else { return "" }
        let (clipped, used) = clipMeasured(text, to: columns, ellipsis: ellipsis)
        let missing = columns - used
        let before: Int
        switch alignment {
        case .left: before = 0
        case .right: before = missing
        case .center: before = missing / 2
        }
        return String(repeating: " ", count: before) + clipped + String(repeating: " ", count: missing - before)
    }
}
