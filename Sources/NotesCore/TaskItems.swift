/// The task-list items of a note's body (issue 25, "Tasks across notes"): Markdown's `- [ ]`
/// (open) and `- [x]` (done), with `*` or `+` for `-` and any indentation, as GitHub and Obsidian
/// read them. Lines inside fenced code blocks (``` or ~~~) are not tasks. Lines are numbered
/// from 1 in the body, LF or CRLF alike.
public struct TaskItem: Sendable, Equatable {
    /// The body line, from 1.
    public var line: Int
    /// The text after the box.
    public var text: String
    public var isDone: Bool

    public init(line: Int, text: String, isDone: Bool) {
        self.line = line
        self.text = text
        self.isDone = isDone
    }

    /// Every task of `body`, in order.
    public static func all(in body: String) -> [TaskItem] {
        tasks(in: body).map(\.item)
    }

    /// The tasks with the range of their line in `body`.
    static func tasks(in body: String) -> [(item: TaskItem, range: Range<String.Index>)] {
        var items: [(TaskItem, Range<String.Index>)] = []
        var fence: Substring?
        for (index, range) in lines(of: body).enumerated() {
            let trimmed = body[range].drop { $0 == " " || $0 == "\t" }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = trimmed.prefix(3)
                continue
            }
            guard let (done, text) = parse(trimmed) else { continue }
            items.append((TaskItem(line: index + 1, text: String(text), isDone: done), range))
        }
        return items
    }

    /// The ranges of the lines of `text`, without their LF or CRLF (Swift reads CRLF as one
    /// character, so splitting on "\n" alone would miss it).
    static func lines(of text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "\n" || character == "\r\n" {
                ranges.append(start..<index)
                start = next
            }
            index = next
        }
        ranges.append(start..<text.endIndex)
        return ranges
    }

    /// The open tasks of `body`.
    public static func open(in body: String) -> [TaskItem] { all(in: body).filter { !$0.isDone } }

    /// `body` with the open task on `line` ticked (`[ ]` → `[x]`), every other byte unchanged;
    /// nil when that line is not an open task.
    public static func ticking(line: Int, in body: String) -> String? {
        setting(line: line, done: true, in: body)
    }

    /// `body` with the task on `line` marked done (`[ ]` → `[x]`) or open again (`[x]` or `[X]`
    /// → `[ ]`), every other byte unchanged; nil when that line is not a task in the other state
    /// (the note changed since it was read: the caller says so rather than guess).
    public static func setting(line: Int, done: Bool, in body: String) -> String? {
        guard let (_, range) = tasks(in: body).first(where: { $0.item.line == line && $0.item.isDone != done }),
            let open = body[range].firstIndex(of: "[")
        else { return nil }
        let box = open..<body.index(open, offsetBy: 3)
        return body.replacingCharacters(in: box, with: done ? "[x]" : "[ ]")
    }

    /// Whether the line (without its indentation) is a task: a bullet, one space, a box, then a
    /// space or the end of the line; the box's state and the text after it.
    static func parse(_ line: Substring) -> (done: Bool, text: Substring)? {
        guard let bullet = line.first, "-*+".contains(bullet) else { return nil }
        let rest = line.dropFirst()
        guard rest.hasPrefix(" [") else { return nil }
        let box = rest.dropFirst(2)
        guard let mark = box.first, box.dropFirst().first == "]" else { return nil }
        let after = box.dropFirst(2)
        guard after.isEmpty || after.first == " " || after.first == "\t" else { return nil }
        switch mark {
        case " ": return (false, after.drop { $0 == " " || $0 == "\t" })
        case "x", "X": return (true, after.drop { $0 == " " || $0 == "\t" })
        default: return nil
        }
    }
}
