/// How a cell is drawn: colours from a small palette and text attributes.
///
/// The palette is the eight ANSI colours, their bright variants and the terminal's default,
/// which every backend (ncurses included) can show; a theme maps meaning to these.
public struct Style: Hashable, Sendable, CustomStringConvertible {
    /// A colour of the 16-colour ANSI palette, or the terminal's own default.
    public enum Color: Hashable, Sendable, CaseIterable {
        case `default`
        case black, red, green, yellow, blue, magenta, cyan, white
        case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite

        /// The case's name, as a config spells it (`brightBlue`), without the runtime's reflection
        /// that string interpolation of an enum goes through (a lookup costly at start-up).
        public var name: String {
            switch self {
            case .default: "default"
            case .black: "black"
            case .red: "red"
            case .green: "green"
            case .yellow: "yellow"
            case .blue: "blue"
            case .magenta: "magenta"
            case .cyan: "cyan"
            case .white: "white"
            case .brightBlack: "brightBlack"
            case .brightRed: "brightRed"
            case .brightGreen: "brightGreen"
            case .brightYellow: "brightYellow"
            case .brightBlue: "brightBlue"
            case .brightMagenta: "brightMagenta"
            case .brightCyan: "brightCyan"
            case .brightWhite: "brightWhite"
            }
        }
    }

    /// Text attributes; any combination is allowed.
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let bold = Attributes(rawValue: 1 << 0)
        public static let underline = Attributes(rawValue: 1 << 1)
        public static let reverse = Attributes(rawValue: 1 << 2)
        public static let dim = Attributes(rawValue: 1 << 3)
        /// Italic where the terminal has it; a backend without it draws underline instead.
        public static let italic = Attributes(rawValue: 1 << 4)
    }

    public var foreground: Color
    public var background: Color
    public var attributes: Attributes

    public init(foreground: Color = .default, background: Color = .default, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// Default colours, no attributes.
    public static let plain = Style()

    public var isBold: Bool { attributes.contains(.bold) }
    public var isUnderlined: Bool { attributes.contains(.underline) }
    public var isReversed: Bool { attributes.contains(.reverse) }
    public var isDim: Bool { attributes.contains(.dim) }
    public var isItalic: Bool { attributes.contains(.italic) }

    public func foreground(_ color: Color) -> Style { with { $0.foreground = color } }
    public func background(_ color: Color) -> Style { with { $0.background = color } }
    public func bold() -> Style { with { $0.attributes.insert(.bold) } }
    public func underline() -> Style { with { $0.attributes.insert(.underline) } }
    public func reverse() -> Style { with { $0.attributes.insert(.reverse) } }
    public func dim() -> Style { with { $0.attributes.insert(.dim) } }
    public func italic() -> Style { with { $0.attributes.insert(.italic) } }

    private func with(_ change: (inout Style) -> Void) -> Style {
        var copy = self
        change(&copy)
        return copy
    }

    /// A short form for test output, such as `fg=red bg=default bold`; `plain` for the default.
    public var description: String {
        if self == .plain { return "plain" }
        var parts: [String] = []
        if foreground != .default { parts.append("fg=\(foreground.name)") }
        if background != .default { parts.append("bg=\(background.name)") }
        if isBold { parts.append("bold") }
        if isUnderlined { parts.append("underline") }
        if isReversed { parts.append("reverse") }
        if isDim { parts.append("dim") }
        if isItalic { parts.append("italic") }
        return parts.joined(separator: " ")
    }
}
