extension InputEvent {
    /// Key events from a compact notation, for tests: plain characters stand for themselves
    /// and named keys go in angle brackets, with `C-`, `A-` and `S-` for Ctrl, Alt and Shift,
    /// as helix and vim write them: `"jj<C-s><Esc><A-Left><S-Tab><F5><lt>"`.
    ///
    /// Names (case-insensitive): Up, Down, Left, Right, Home, End, PgUp, PgDn, Tab, Enter (CR),
    /// Esc, BS (Backspace), Del (Delete), Ins (Insert), Space, lt (a literal `<`), F1–F24, and a
    /// single character (`<C-s>`). Returns nil for an unknown name or an unclosed bracket.
    public static func keys(_ notation: String) -> [InputEvent]? {
        var events: [InputEvent] = []
        var rest = Substring(notation)
        while let first = rest.first {
            rest = rest.dropFirst()
            guard first == "<" else {
                events.append(.char(first))
                continue
            }
            guard let close = rest.firstIndex(of: ">"), close != rest.startIndex,
                let event = named(rest[..<close])
            else { return nil }
            events.append(event)
            rest = rest[rest.index(after: close)...]
        }
        return events
    }

    /// One `<...>` name with its modifier prefixes.
    private static func named(_ text: Substring) -> InputEvent? {
        var modifiers: Modifiers = []
        var name = text
        while name.count > 2, name.dropFirst().first == "-", let prefix = name.first {
            switch prefix.uppercased() {
            case "C": modifiers.insert(.control)
            case "A", "M": modifiers.insert(.alt)
            case "S": modifiers.insert(.shift)
            default: return nil
            }
            name = name.dropFirst(2)
        }
        if name.count == 1, let character = name.first { return .key(.character(character), modifiers: modifiers) }
        guard let key = namedKeys[name.lowercased()] ?? functionKey(name) else { return nil }
        return .key(key, modifiers: modifiers)
    }

    private static func functionKey(_ name: Substring) -> Key? {
        guard name.first == "F" || name.first == "f", let n = Int(name.dropFirst()), (1...24).contains(n)
        else { return nil }
        return .function(n)
    }

    private static let namedKeys: [String: Key] = [
        "up": .up, "down": .down, "left": .left, "right": .right,
        "home": .home, "end": .end, "pgup": .pageUp, "pgdn": .pageDown, "pageup": .pageUp, "pagedown": .pageDown,
        "tab": .tab, "enter": .enter, "cr": .enter, "ret": .enter, "esc": .escape, "escape": .escape,
        "bs": .backspace, "backspace": .backspace, "del": .delete, "delete": .delete,
        "ins": .insert, "insert": .insert, "space": .character(" "), "lt": .character("<"),
    ]
}
