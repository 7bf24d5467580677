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
        var row = ""
        appendRow(note, width: width, highlights: highlights, styled: styled, to: &row)
        return row
    }

    /// `row` appended to `out`: a search that prints every match lays out thousands of rows
    /// into one buffer (issue 27; the pieces interpolated and the padding made as strings of
    /// their own were a third of its printing thread).
    static func appendRow(
        _ note: NoteSummary, width: Int = 100, highlights: [Range<Int>] = [], styled: Bool = true,
        to out: inout String
    ) {
        func append(_ text: String, style code: String) {
            out += styled ? Output.style(text, code) : text
        }
        out += note.isFavorite ? "★ " : "  "
        append(shortID(note.id), style: "2")
        out += "  "
        let title = note.title.isEmpty ? "(untitled)" : note.title
        let titleWidth = max(16, min(48, width - 30))
        var shown = TerminalSafeText.sanitize(title)
        let (clipped, used) =
            shown.withUTF8(SingleScalarCharacters.holds)
            ? TextWidth.clipMeasured(singleScalarCharacters: shown, to: titleWidth, ellipsis: true)
            : TextWidth.clipMeasured(shown, to: titleWidth, ellipsis: true)
        out += styled ? highlight(clipped, title == shown ? highlights : []) : clipped
        appendSpaces(titleWidth - used, to: &out)
        out += "  "
        let time = Format.relative(note.modifiedAt)
        appendSpaces(4 - time.utf8.count, to: &out)
        out += time
        out += " "
        out += syncMark(note.syncState)
        if !note.tags.isEmpty {
            out += "  "
            append(TerminalSafeText.sanitize(note.tags.map { "#" + $0 }.joined(separator: " ")), style: "2")
        }
    }

    private static let spaces = String(repeating: " ", count: 64)

    /// `count` spaces (none when it is not positive).
    static func appendSpaces(_ count: Int, to out: inout String) {
        guard count > 0 else { return }
        out += count <= spaces.utf8.count ? spaces.prefix(count) : Substring(String(repeating: " ", count: count))
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
