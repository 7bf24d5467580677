import NotesCore
import TerminalUI

/// The styles `view` uses, by meaning; colours come from the config's theme roles
/// (`AppConfig.themeRoles`), and none at all under NO_COLOR (attributes stay).
public struct Theme: Equatable, Sendable {
    /// Headers and titles (bold either way).
    public var accent: Style.Color = .default
    public var favoriteColor: Style.Color = .yellow
    public var synced: Style.Color = .green
    public var pending: Style.Color = .yellow
    public var conflict: Style.Color = .red
    public var error: Style.Color = .red
    public var match: Style.Color = .yellow
    /// The selected row's bar; `.default` draws it in reverse video.
    public var selection: Style.Color = .default
    /// Key hints, snippets and placeholders; `.default` draws them dim.
    public var muted: Style.Color = .default
    /// False under NO_COLOR: the preview's Markdown styles use attributes only.
    public var usesColor = true

    /// The built-in colours (the config's defaults).
    public static let standard = Theme()

    /// No colour at all, for NO_COLOR (https://no-color.org): bold, reverse and dim still mark meaning.
    public static let noColor = Theme(
        accent: .default, favoriteColor: .default, synced: .default, pending: .default, conflict: .default,
        error: .default, match: .default, selection: .default, muted: .default, usesColor: false)

    init(
        accent: Style.Color = .default, favoriteColor: Style.Color = .yellow, synced: Style.Color = .green,
        pending: Style.Color = .yellow, conflict: Style.Color = .red, error: Style.Color = .red,
        match: Style.Color = .yellow, selection: Style.Color = .default, muted: Style.Color = .default,
        usesColor: Bool = true
    ) {
        self.usesColor = usesColor
        self.accent = accent
        self.favoriteColor = favoriteColor
        self.synced = synced
        self.pending = pending
        self.conflict = conflict
        self.error = error
        self.match = match
        self.selection = selection
        self.muted = muted
    }

    /// A theme from the config's role → colour-name table (unknown names keep the default);
    /// `noColor` (the NO_COLOR variable is set) wins over everything.
    public init(roles: [String: String], noColor: Bool) {
        guard !noColor else {
            self = .noColor
            return
        }
        func color(_ role: String, _ fallback: Style.Color) -> Style.Color {
            guard let name = roles[role] else { return fallback }
            return Style.Color.allCases.first { $0.name == name } ?? fallback
        }
        self.init(
            accent: color("accent", .default), favoriteColor: color("favorite", .yellow),
            synced: color("synced", .green),
            pending: color("pending", .yellow), conflict: color("conflict", .red), error: color("error", .red),
            match: color("match", .yellow), selection: color("selection", .default), muted: color("muted", .default))
    }

    var header: Style { Style().bold().foreground(accent) }
    /// The selected row: a bar in the selection colour, or reverse video without colour.
    var selected: Style { selection == .default ? Style().reverse() : Style().background(selection) }
    /// The selection while another pane has focus.
    var selectedUnfocused: Style { Style().underline() }

    /// A cell of the selected row: its own colours and emphasis kept, the selection added.
    func selecting(_ cell: Style, focused: Bool) -> Style {
        let selection = focused ? selected : selectedUnfocused
        var style = cell
        style.attributes.formUnion(selection.attributes)
        if selection.background != .default { style.background = selection.background }
        return style
    }
    var favorite: Style { Style().foreground(favoriteColor) }
    /// Dim without colour (NO_COLOR), else the muted colour.
    var placeholder: Style { muted == .default ? Style().dim() : Style().foreground(muted) }
    var statusBar: Style { Style().reverse() }
    var hint: Style { placeholder }
    /// Search matches in titles and snippets: bold and underlined, so they show without colour too.
    var highlight: Style { Style().foreground(match).bold().underline() }
    /// A line one side of a conflict has and the other does not (the resolver).
    var changedLine: Style { Style().foreground(conflict).bold() }
    var cursor: Style { Style().reverse() }

    // The preview's Markdown (View+Markdown.swift): attributes carry the meaning, colour adds to it.
    /// A heading: bold, underlined for levels 1-3, in the accent colour.
    func heading(_ level: Int) -> Style { level <= 3 ? header.underline() : header }
    /// Code spans and blocks: cyan, or dim without colour.
    var code: Style { usesColor ? Style().foreground(.cyan) : Style().dim() }
    /// A link's text: underlined (blue with colour).
    var link: Style { usesColor ? Style().underline().foreground(.blue) : Style().underline() }
    /// Bullets, quote bars, rules, table borders and a link's address.
    var markup: Style { placeholder }

    func mark(_ state: Note.SyncState) -> Style {
        switch state {
        case .synced: Style().foreground(synced)
        case .pending: Style().foreground(pending)
        case .conflict: Style().foreground(conflict).bold()
        }
    }

    func message(_ severity: StatusMessage.Severity) -> Style {
        switch severity {
        case .info: statusBar
        case .warning: statusBar.foreground(pending)
        case .error: statusBar.foreground(error).bold()
        }
    }
}
