import Foundation

/// Templates are notes in the `templates` notebook; their title and body may hold `{{date}}`
/// (`2026-11-24`), `{{time}}` (`09:05`, 24-hour) and `{{title}}` (the new note's title), filled
/// in the local time zone when a note is made from them (`today`, `add --template`).
public enum NoteTemplate {
    /// The notebook templates live in.
    public static let zone = "templates"
    /// The template `today` uses when there is one.
    public static let dailyName = "Daily"

    /// `text` with its placeholders filled; unknown `{{…}}` stay as written.
    public static func expand(_ text: String, date: Date, title: String, timeZone: TimeZone) -> String {
        guard text.contains("{{") else { return text }
        return
            text
            .replacingOccurrences(of: "{{date}}", with: day(date, timeZone: timeZone))
            .replacingOccurrences(of: "{{time}}", with: time(date, timeZone: timeZone))
            .replacingOccurrences(of: "{{title}}", with: title)
    }

    /// The day as `yyyy-MM-dd` in `timeZone`: a daily note's title.
    public static func day(_ date: Date, timeZone: TimeZone) -> String {
        let c = calendar(timeZone).dateComponents([.year, .month, .day], from: date)
        return "\(padded(c.year ?? 0, 4))-\(padded(c.month ?? 0, 2))-\(padded(c.day ?? 0, 2))"
    }

    public static func time(_ date: Date, timeZone: TimeZone) -> String {
        let c = calendar(timeZone).dateComponents([.hour, .minute], from: date)
        return "\(padded(c.hour ?? 0, 2)):\(padded(c.minute ?? 0, 2))"
    }

    static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    static func padded(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
