import NotesCore
import TerminalUI

/// How the editor shows each character of untrusted note text: through `TerminalSafeText`
/// (ARCHITECTURE §7), one character at a time, so the cursor can still sit on a control character
/// or a bidi override and the user sees it as `␛` or `<U+202E>`. The stored text is unchanged.
struct SafeGlyphs: GlyphMeasure {
    /// Tab stops are every 8 columns of a visual row, as in terminals, nano and vim.
    static let tabStop = 8

    func columns(of character: Character, at x: Int) -> Int {
        character == "\t" ? Self.tabStop - max(0, x) % Self.tabStop : columns(of: character)
    }

    func columns(of character: Character) -> Int {
        if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F { return 1 }
        return max(1, TextWidth.width(of: display(character)))
    }

    /// What is drawn for `character`: itself when it is safe, else its visible replacement.
    func display(_ character: Character) -> String {
        if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F { return String(character) }
        if character == "\t" { return String(repeating: " ", count: Self.tabStop) }
        return TerminalSafeText.sanitize(String(character), mode: .line)
    }
}
