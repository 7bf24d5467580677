import Foundation
import NotesCore
import NotesStore
import TerminalUI

/// Human-readable formatting of notes for the terminal.
enum Format {
    static func shortID(_ id: UUID) -> String { String(id.lowercasedString.prefix(8)) }

    /// A count with thousands separators, the same in every locale: 1234 → "1,234".
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// A size in bytes: "12 B", "3.4 KB", "200.0 MB" (an attachment, the store).
    static func bytes(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }

    static func syncMark(_ state: Note.SyncState) -> String {
        switch state {
        case .synced: return "✓"
        case .pending: return "↻"
        case .conflict: return "⚠"
        }
    }

    /// "now", "5m", "3h", "2d", "5w", "4mo", "2y".
    static func relative(_ date: Date, now: Date = Date()) -> String {
        let s = max(0, Int(now.timeIntervalSince(date)))
        switch s {
        case ..<60: return "now"
        case ..<3600: return "\(s / 60)m"
        case ..<86400: return "\(s / 3600)h"
        case ..<(86400 * 14): return "\(s / 86400)d"
        case ..<(86400 * 60): return "\(s / (86400 * 7))w"
        case ..<(86400 * 365): return "\(s / (86400 * 30))mo"
        default: return "\(s / (86400 * 365))y"
        }
    }

    static func iso(_ date: Date) -> String { ISODate.string(date) }

    static func parseISO(_ text: String) -> Date? { ISODate.parse(text) }

    /// One list row: favorite star, short id, title, relative time, sync mark, tags.
    /// `styled: false` leaves out colour, for text that is not going to stdout (error messages).
    static func row(_ note: NoteSummary, width: Int = 100, highlights: [Range<Int>] = [], styled: Bool = true) -> String
    {
        func style(_ text: String, _ code: String) -> String { styled ? Output.style(text, code) : text }
        let star = note.isFavorite ? "★" : " "
        let title = note.title.isEmpty ? "(untitled)" : note.title
        let tags = note.tags.map { "#" + $0 }.joined(separator: " ")
        let titleWidth = max(16, min(48, width - 30))
        let shown = TerminalSafeText.sanitize(title)
        let clipped = TextWidth.clip(shown, to: titleWidth, ellipsis: true)
        let highlighted = styled ? highlight(clipped, title == shown ? highlights : []) : clipped
        let pad = String(repeating: " ", count: max(0, titleWidth - TextWidth.width(of: clipped)))
        let time = Format.relative(note.modifiedAt)
        let timePad = String(repeating: " ", count: max(0, 4 - time.count))
        let tagText = tags.isEmpty ? "" : "  " + style(TerminalSafeText.sanitize(tags), "2")
        return
            "\(star) \(style(shortID(note.id), "2"))  \(highlighted)\(pad)  \(timePad)\(time) \(syncMark(note.syncState))\(tagText)"
    }

    /// Marks `ranges` (character offsets) of `text` bold and underlined (when colour is on).
    static func highlight(_ text: String, _ ranges: [Range<Int>]) -> String {
        guard Output.useColor, !ranges.isEmpty else { return text }
        var out = ""
        for (i, ch) in text.enumerated() {
            let inside = ranges.contains { $0.contains(i) }
            let startsRange = ranges.contains { $0.lowerBound == i }
            let endsRange = ranges.contains { $0.upperBound == i }
            if endsRange && !inside { out += "\u{1B}[0m" }
            if startsRange { out += "\u{1B}[1;4m" }
            out.append(ch)
        }
        if ranges.contains(where: { $0.upperBound >= text.count }) { out += "\u{1B}[0m" }
        return out
    }
}
