/// How many columns an editor gives each character, which decides soft wrap and cursor columns.
///
/// The app supplies one that measures what it really draws (a control character shown as a
/// visible picture, a bidi control as a `<U+202E>` marker); `PlainGlyphs` measures text as is.
public protocol GlyphMeasure: Equatable, Sendable {
    /// Columns `character` takes on screen: at least 1, so the cursor can sit on every character.
    func columns(of character: Character) -> Int
}

/// Text drawn as is: `TextWidth`, with zero-width characters given one column.
public struct PlainGlyphs: GlyphMeasure {
    public init() {}

    public func columns(of character: Character) -> Int { max(1, TextWidth.width(of: character)) }
}
