/// One terminal cell: a grapheme cluster, its display width and its style.
///
/// A wide (2-column) character is stored in its first cell with `width == 2`; the cell to
/// its right is a *continuation* (`width == 0`, empty grapheme) that carries the same style
/// and is never painted on its own. `Buffer` keeps these pairs consistent.
public struct Cell: Hashable, Sendable, CustomStringConvertible {
    /// The grapheme cluster shown here; empty for a continuation cell.
    public private(set) var grapheme: String
    /// Columns the grapheme takes: 1 or 2, or 0 for a continuation cell.
    public private(set) var width: Int
    public var style: Style

    /// A cell for `character`, its width from `TextWidth`.
    ///
    /// A character of width 0 (a control such as ESC, a lone combining mark, a format
    /// character such as a bidi override) is stored as U+FFFD `�`, so no cell can carry
    /// something a terminal would interpret or hide; `TerminalSafeText` (NotesCore) gives better replacements
    /// for text before it is written.
    public init(_ character: Character, style: Style = .plain) {
        let width = TextWidth.width(of: character)
        self.grapheme = width == 0 ? "\u{FFFD}" : String(character)
        self.width = max(1, width)
        self.style = style
    }

    private init(grapheme: String, width: Int, style: Style) {
        self.grapheme = grapheme
        self.width = width
        self.style = style
    }

    /// The cell of a printable ASCII byte (0x20-0x7E), whose width is 1 without a lookup.
    static func ascii(_ byte: UInt8, style: Style) -> Cell {
        Cell(grapheme: asciiGraphemes[Int(byte)], width: 1, style: style)
    }

    /// Each ASCII byte as a string, made once.
    private static let asciiGraphemes: [String] = (0..<128).map { String(Character(Unicode.Scalar(UInt8($0)))) }

    /// A space in the default style.
    public static let blank = Cell(" ")

    /// The right half of a wide character.
    public static func continuation(style: Style = .plain) -> Cell {
        Cell(grapheme: "", width: 0, style: style)
    }

    public var isContinuation: Bool { width == 0 }
    public var isWide: Bool { width == 2 }

    public var description: String {
        isContinuation ? "<cont \(style)>" : "\"\(grapheme)\" \(style)"
    }
}
