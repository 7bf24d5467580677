import TerminalUI

/// Text in one style, as the preview draws it; the text is already terminal-safe.
struct PreviewSpan: Equatable, Sendable {
    var text: String
    var style: Style
}

/// One body line as the preview draws it (View+Markdown.swift): what its first row starts with
/// (indentation, a bullet, a task box, a quote bar) and its text. Rows after the first are
/// indented by the prefix's width, so a list item's text stays under its first word.
struct PreviewLine: Equatable, Sendable {
    /// The body line (from 1) it shows.
    var source: Int
    var prefix: [PreviewSpan] = []
    var content: [PreviewSpan] = []
    /// False for code and tables: cut at the pane's edge, never reflowed.
    var wraps = true
    /// Which of `prefix`'s spans is a task's box (the task cursor marks it).
    var box: Int?
    /// Drawn across the pane instead of text (a horizontal rule).
    var fill: Character?
    /// Drawn under the text, as wide as it (levels 1 and 2 of the headings).
    var below: Character?

    /// The content as one string (what search matches are found in).
    var contentText: String { content.map(\.text).joined() }
    /// Everything the line shows, prefix first.
    var text: String { (prefix + content).map(\.text).joined() }
}

extension [PreviewSpan] {
    /// Appends `text` in `style`, joining it to the last span when the style is the same.
    mutating func add(_ text: some StringProtocol, _ style: Style) {
        guard !text.isEmpty else { return }
        if let last = self.last, last.style == style {
            self[count - 1].text += text
        } else {
            append(PreviewSpan(text: String(text), style: style))
        }
    }
}

extension Style {
    /// This style with `other`'s attributes added and its colours where it has any.
    func adding(_ other: Style) -> Style {
        var style = self
        style.attributes.formUnion(other.attributes)
        if other.foreground != .default { style.foreground = other.foreground }
        if other.background != .default { style.background = other.background }
        return style
    }
}
