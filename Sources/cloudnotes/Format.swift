import Foundation
import NotesCore
import NotesStore

/// Human-readable formatting of notes for the terminal.
enum Format {
    static func shortID(_ id: UUID) -> String { String(id.uuidString.lowercased().prefix(8)) }

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
        let clipped = TextWidth.clip(shown, to: titleWidth)
        let highlighted = styled ? highlight(clipped, title == shown ? highlights : []) : clipped
        let pad = String(repeating: " ", count: max(0, titleWidth - TextWidth.of(clipped)))
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

/// Display width of text in terminal columns (wide East Asian characters and emoji take two).
enum TextWidth {
    static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    static func of(_ ch: Character) -> Int {
        guard let first = ch.unicodeScalars.first else { return 0 }
        if ch.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }) { return 2 }
        return isWide(first) ? 2 : (first.properties.generalCategory == .nonspacingMark ? 0 : 1)
    }

    static func isWide(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` cut to at most `width` columns, ending in "…" when cut.
    static func clip(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        var out = ""
        var used = 0
        for ch in text {
            let w = of(ch)
            if used + w > width - 1 { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }
}
