import TerminalUI

/// Turns what ncurses reads (characters and key codes) into `InputEvent`s, decoding the escape
/// sequences ncurses leaves alone: bracketed paste (`ESC [200~ … ESC [201~`, delivered as one
/// `.paste`), Alt-x (`ESC x`), Alt-Backspace (`ESC DEL`), modified arrows (`ESC [1;5C`) and SGR mouse reports, which arrive
/// as plain characters when the terminfo entry (tmux's `screen`, for one) does not name them.
///
/// Pure and stateful: a paste or a sequence may span several reads, so `feed` keeps what is
/// unfinished and `flush` (called when no more input came within the escape delay) gives up on
/// an unfinished sequence and reports its characters as typed.
struct InputDecoder {
    /// One unit of input as ncurses returns it.
    enum Unit: Equatable {
        case scalar(Unicode.Scalar)
        /// A key code ncurses decoded (`KEY_*`), with its `keyname` for terminfo's extended
        /// keys such as `kRIT5` (Ctrl-→).
        case key(InputEvent.Key, modifiers: InputEvent.Modifiers)
    }

    private static let esc: Unicode.Scalar = "\u{1B}"
    private static let pasteEnd: [Unicode.Scalar] = Array("\u{1B}[201~".unicodeScalars)

    /// Characters of an escape sequence not yet complete.
    private var pending: [Unicode.Scalar] = []
    /// Text of a bracketed paste not yet ended.
    private var paste: [Unicode.Scalar]?

    /// True while a sequence is incomplete: the caller waits the escape delay, then `flush`es.
    var hasPending: Bool { !pending.isEmpty }

    /// True when all that is pending is one ESC. ncurses (with `keypad`) hands over a lone ESC
    /// only after waiting its own escape delay for what follows, so nothing more is coming for
    /// it: the caller flushes it at once instead of waiting the delay a second time.
    var hasLoneEscape: Bool { pending == [Self.esc] }

    /// Decodes `units` (everything read in one go) and returns the complete events.
    mutating func feed(_ units: [Unit]) -> [InputEvent] {
        var events: [InputEvent] = []
        var text = String.UnicodeScalarView()
        func flushText() {
            for character in String(text) { events.append(Self.event(for: character)) }
            text.removeAll()
        }
        for unit in units {
            if paste != nil {
                if case .scalar(let scalar) = unit { appendToPaste(scalar, events: &events) }
                continue
            }
            switch unit {
            case .key(let key, let modifiers):
                flushText()
                if pending == [Self.esc] {
                    // ESC then a key ncurses decoded (Alt-Backspace is ESC DEL, DEL being
                    // terminfo's backspace key): the key with Alt.
                    pending = []
                    events.append(.key(key, modifiers: modifiers.union(.alt)))
                    continue
                }
                events += flushPending()
                events.append(.key(key, modifiers: modifiers))
            case .scalar(let scalar):
                if !pending.isEmpty || scalar == Self.esc {
                    flushText()
                    pending.append(scalar)
                    events += decodePending()
                } else if Self.isControl(scalar) {
                    flushText()
                    events.append(Self.controlEvent(scalar))
                } else {
                    // Printable scalars are grouped so a base and its combining marks make one key.
                    text.append(scalar)
                }
            }
        }
        flushText()
        return events
    }

    /// Gives up on an unfinished escape sequence: a lone ESC is Escape, ESC x is Alt-x, and the
    /// rest is typed text. An unfinished paste stays open (a large paste arrives in pieces).
    mutating func flush() -> [InputEvent] {
        flushPending()
    }

    private mutating func flushPending() -> [InputEvent] {
        guard !pending.isEmpty else { return [] }
        let scalars = pending
        pending = []
        var events: [InputEvent] = []
        var rest = scalars[...]
        if rest.first == Self.esc {
            rest = rest.dropFirst()
            if let next = rest.first, !Self.isControl(next), next != Self.esc {
                events.append(.key(.character(Character(next)), modifiers: .alt))
                rest = rest.dropFirst()
            } else {
                events.append(.key(.escape))
            }
        }
        if !rest.isEmpty {
            events += feed(rest.map { .scalar($0) })
        }
        return events
    }

    /// Decodes `pending` if it is a complete sequence; keeps it while it may still become one.
    private mutating func decodePending() -> [InputEvent] {
        guard pending.count >= 2 else { return [] }
        let second = pending[1]
        switch second {
        case "[":
            return decodeCSI()
        case "O":
            guard pending.count >= 3 else { return [] }
            let final = pending[2]
            pending = []
            if let key = Self.ss3Key(final) { return [.key(key)] }
            return [.key(.character("O"), modifiers: .alt)] + feed([.scalar(final)])
        case Self.esc:
            // ESC ESC: the first is Escape, the second starts over.
            pending = [Self.esc]
            return [.key(.escape)]
        default:
            pending = []
            // ESC DEL (or ESC BS): Alt-Backspace.
            if second.value == 0x7F || second.value == 0x08 { return [.key(.backspace, modifiers: .alt)] }
            if Self.isControl(second) { return [.key(.escape)] + feed([.scalar(second)]) }
            return [.key(.character(Character(second)), modifiers: .alt)]
        }
    }

    /// ESC [ params final: cursor keys, Home/End, editing and function keys, paste start, SGR mouse.
    private mutating func decodeCSI() -> [InputEvent] {
        guard let final = pending.last, pending.count >= 3 else { return [] }
        let isFinal = (0x40...0x7E).contains(final.value) && !(pending.count == 3 && final == "<")
        guard isFinal else {
            // A sequence longer than any we know is not one: give it up as typed text.
            if pending.count > 32 { return flushPending() }
            return []
        }
        let body = String(String.UnicodeScalarView(pending[2..<(pending.count - 1)]))
        pending = []
        if body.hasPrefix("<") { return Self.sgrMouse(String(body.dropFirst()), final: final).map { [$0] } ?? [] }
        let params = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let modifiers = params.count >= 2 ? Self.modifiers(params[1] ?? 1) : []
        switch final {
        case "A": return [.key(.up, modifiers: modifiers)]
        case "B": return [.key(.down, modifiers: modifiers)]
        case "C": return [.key(.right, modifiers: modifiers)]
        case "D": return [.key(.left, modifiers: modifiers)]
        case "H": return [.key(.home, modifiers: modifiers)]
        case "F": return [.key(.end, modifiers: modifiers)]
        case "Z": return [.key(.tab, modifiers: .shift)]
        case "~":
            switch params.first ?? nil {
            case 200:
                paste = []
                return []
            case 201: return []  // a stray paste end
            case let number?:
                return Self.tildeKey(number).map { [.key($0, modifiers: modifiers)] } ?? []
            case nil: return []
            }
        default:
            return []
        }
    }

    private mutating func appendToPaste(_ scalar: Unicode.Scalar, events: inout [InputEvent]) {
        // Called only while a paste is open. The buffer is taken out of `paste` so appending
        // to it does not copy it.
        guard var pasted = paste else { return }
        paste = nil
        pasted.append(scalar)
        guard pasted.count >= Self.pasteEnd.count, pasted.suffix(Self.pasteEnd.count).elementsEqual(Self.pasteEnd)
        else {
            paste = pasted
            return
        }
        let body = pasted.dropLast(Self.pasteEnd.count)
        // Terminals send line breaks in a paste as CR (the Enter key); notes use LF.
        var text = String(String.UnicodeScalarView(body))
        text = text.replacingCRLF()
        events.append(.paste(text))
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }

    /// A C0 control or DEL as the key that sends it.
    static func controlEvent(_ scalar: Unicode.Scalar) -> InputEvent {
        switch scalar.value {
        case 0x0D, 0x0A: return .key(.enter)
        case 0x09: return .key(.tab)
        case 0x08, 0x7F: return .key(.backspace)
        case 0x1B: return .key(.escape)
        case 0x00: return .ctrl(" ")
        case 0x01...0x1A: return .ctrl(Character(Unicode.Scalar(UInt8(scalar.value + 0x60))))
        // 0x1C-0x1F: \ ] ^ _
        default: return .ctrl(Character(Unicode.Scalar(UInt8(truncatingIfNeeded: scalar.value + 0x40))))
        }
    }

    static func event(for character: Character) -> InputEvent { .key(.character(character)) }

    /// xterm's modifier parameter: 1 + (shift 1 | alt 2 | ctrl 4).
    static func modifiers(_ parameter: Int) -> InputEvent.Modifiers {
        let bits = max(0, parameter - 1)
        var modifiers: InputEvent.Modifiers = []
        if bits & 1 != 0 { modifiers.insert(.shift) }
        if bits & 2 != 0 { modifiers.insert(.alt) }
        if bits & 4 != 0 { modifiers.insert(.control) }
        return modifiers
    }

    static func ss3Key(_ final: Unicode.Scalar) -> InputEvent.Key? {
        switch final {
        case "A": .up
        case "B": .down
        case "C": .right
        case "D": .left
        case "H": .home
        case "F": .end
        case "M": .enter
        case "P": .function(1)
        case "Q": .function(2)
        case "R": .function(3)
        case "S": .function(4)
        default: nil
        }
    }

    static func tildeKey(_ number: Int) -> InputEvent.Key? {
        switch number {
        case 1, 7: .home
        case 2: .insert
        case 3: .delete
        case 4, 8: .end
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(number - 10)
        case 17...21: .function(number - 11)
        case 23, 24: .function(number - 12)
        default: nil
        }
    }

    /// `ESC [ < button ; x ; y M|m` (1-based cells): press of button 1, wheel up (64), wheel down (65).
    static func sgrMouse(_ body: String, final: Unicode.Scalar) -> InputEvent? {
        let fields = body.split(separator: ";").compactMap { Int($0) }
        guard fields.count == 3, final == "M" else { return nil }
        let point = Point(x: fields[1] - 1, y: fields[2] - 1)
        switch fields[0] {
        case 0: return .mouse(.click(point))
        case 64: return .mouse(.wheelUp(point))
        case 65: return .mouse(.wheelDown(point))
        default: return nil
        }
    }

    /// A terminfo extended key name (`kRIT5`, `kLFT3`, `kDC5`, `kHOM6`...) as a key and modifiers.
    static func extendedKey(named name: String) -> (InputEvent.Key, InputEvent.Modifiers)? {
        guard name.hasPrefix("k"), let digit = name.last?.wholeNumberValue, (2...8).contains(digit) else { return nil }
        let base = name.dropFirst().dropLast()
        let key: InputEvent.Key
        switch base {
        case "UP": key = .up
        case "DN": key = .down
        case "LFT": key = .left
        case "RIT": key = .right
        case "HOM": key = .home
        case "END": key = .end
        case "DC": key = .delete
        case "IC": key = .insert
        case "PRV": key = .pageUp
        case "NXT": key = .pageDown
        default: return nil
        }
        return (key, modifiers(digit))
    }
}

extension String {
    /// CR LF and lone CR as LF.
    fileprivate func replacingCRLF() -> String {
        var scalars = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                scalars.append("\n")
                previousWasCR = true
                continue
            }
            if scalar == "\n" && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = false
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
