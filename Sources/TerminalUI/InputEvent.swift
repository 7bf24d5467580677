/// What the terminal reports: a key, a paste, a mouse action or a new size.
///
/// Backends decode their input (ncurses key codes, escape sequences) into these, so the app
/// core and its tests never see terminal encodings.
public enum InputEvent: Hashable, Sendable {
    case key(Key, modifiers: Modifiers = [])
    /// Text from a bracketed paste, delivered whole (never as keystrokes) and still untrusted.
    case paste(String)
    case mouse(Mouse)
    case resize(Size)

    /// A key on the keyboard.
    public enum Key: Hashable, Sendable {
        /// A printable character (with `.control` or `.alt` for Ctrl-x and Alt-x).
        case character(Character)
        case up, down, left, right
        case home, end, pageUp, pageDown
        case tab, enter, escape, backspace, delete, insert
        /// F1 through F12 (or more, when the terminal reports them).
        case function(Int)
    }

    /// Modifier keys held with a key.
    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let shift = Modifiers(rawValue: 1 << 0)
        public static let control = Modifiers(rawValue: 1 << 1)
        public static let alt = Modifiers(rawValue: 1 << 2)
    }

    /// A mouse action at a cell.
    public enum Mouse: Hashable, Sendable {
        case click(Point)
        case wheelUp(Point)
        case wheelDown(Point)

        public var location: Point {
            switch self {
            case .click(let point), .wheelUp(let point), .wheelDown(let point): point
            }
        }
    }

    /// A plain character key, as in `.char("j")`.
    public static func char(_ character: Character) -> InputEvent { .key(.character(character)) }

    /// Ctrl with a character, as in `.ctrl("s")`.
    public static func ctrl(_ character: Character) -> InputEvent {
        .key(.character(character), modifiers: .control)
    }

    /// Alt with a character, as in `.alt("b")`.
    public static func alt(_ character: Character) -> InputEvent { .key(.character(character), modifiers: .alt) }

    /// One plain character key per character of `text`, as typed.
    public static func typing(_ text: String) -> [InputEvent] { text.map { .char($0) } }
}
