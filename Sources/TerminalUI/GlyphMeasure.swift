/// How many columns an editor gives each character, which decides soft wrap and cursor columns.
///
/// The app supplies one that measures what it really draws (a control character shown as a
/// visible picture, a bidi control as a `<U+202E>` marker); `PlainGlyphs` measures text as is.
public protocol GlyphMeasure: Equatable, Sendable {
    /// Columns `character` takes on screen: at least 1, so the cursor can sit on every character.
    func columns(of character: Character) -> Int

    /// Columns `character` takes when it starts at column `x` of its visual row: the same as
    /// `columns(of:)` but for characters that reach a stop, as a TAB does.
    func columns(of character: Character, at x: Int) -> Int
}

extension GlyphMeasure {
    public func columns(of character: Character, at x: Int) -> Int { columns(of: character) }
}

/// Text drawn as is: `TextWidth`, with zero-width characters given one column.
public struct PlainGlyphs: GlyphMeasure {
    public init() {}

    public func columns(of character: Character) -> Int { max(1, TextWidth.width(of: character)) }
}
