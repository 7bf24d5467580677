import Foundation

/// ISO 8601 dates in UTC with milliseconds, as exports and `--json` write them.
public enum ISODate {
    /// `2023-11-14T22:13:20.123Z`. The milliseconds are printed from the integer count, not by the
    /// formatter, which truncates the binary fraction (`.123` came out as `.122`).
    /// A date outside `RevisionFields.timeRange` prints as the nearest end of it (nothing here
    /// can overflow: `millisecondsSince1970` is clamped to that range).
    public static func string(_ date: Date) -> String {
        let ms = date.millisecondsSince1970
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let fraction = ms - seconds * 1000
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds))
            .formatted(
                .iso8601.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .omitted))
        let digits = String(fraction)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// Parses with or without fractional seconds and with `Z` or a `±hh:mm` offset (a time
    /// without an offset, or a bare date, is taken as UTC); nil if not ISO 8601.
    public static func parse(_ text: String) -> Date? {
        let trimmed = Whitespace.trimmed(text)
        // Foundation's parser rolls Feb 30 into March, takes six-digit years and drops the time of
        // a fraction past nine digits: the shape and the calendar are checked here first.
        let bytes = Array(trimmed.utf8)
        guard isWellFormed(bytes) else { return nil }
        if let date = wholeSecondsUTC(bytes) { return date }
        let strategies: [Date.ISO8601FormatStyle] = [
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted),
            .iso8601.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .omitted),
            .iso8601.year().month().day().time(includingFractionalSeconds: true),
            .iso8601.year().month().day().time(includingFractionalSeconds: false),
            .iso8601.year().month().day(),
        ]
        for strategy in strategies {
            // Each format tried in turn; none matching is nil, said by the caller.
            if let date = try? Date(trimmed, strategy: strategy) { return date }
        }
        return nil
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (what exports, the corpus and most tools write) from 1900 on,
    /// counted directly: the same date as Foundation's parser gives (`ISODateTests`), without
    /// its format styles, which cost an import of 100k notes seconds. Nil for any other form.
    /// `bytes` is well-formed (`isWellFormed`).
    static func wholeSecondsUTC(_ bytes: [UInt8]) -> Date? {
        guard bytes.count == 20, bytes[10] == 0x54, bytes[19] == 0x5A else { return nil }
        func number(_ start: Int, _ width: Int) -> Int {
            bytes[start..<(start + width)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        let year = number(0, 4)
        guard year >= 1900 else { return nil }
        // Days from 1970-01-01 to the date (Gregorian; H. Hinnant's days_from_civil).
        let month = number(5, 2)
        let day = number(8, 2)
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + number(11, 2) * 3600 + number(14, 2) * 60 + number(17, 2)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `YYYY-MM-DD`, then optionally `THH:MM`, `:SS`, `.` and one to nine digits, and `Z` or an
    /// offset `±HH:MM` / `±HHMM`; with a real day of the month (Gregorian), hour, minute and
    /// second.
    static func isWellFormed(_ b: [UInt8]) -> Bool {
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= b.count else { return nil }
            var value = 0
            for byte in b[i..<(i + width)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            i += width
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < b.count, b[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
            (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return false }
        if i == b.count { return true }
        guard expect(0x54), let hour = number(2), hour < 24, expect(0x3A), let minute = number(2), minute < 60
        else { return false }
        if expect(0x3A) {
            guard let second = number(2), second < 60 else { return false }
            if expect(0x2E) {
                let start = i
                while i < b.count, (0x30...0x39).contains(b[i]) { i += 1 }
                guard (1...9).contains(i - start) else { return false }
            }
        }
        if i == b.count || (expect(0x5A) && i == b.count) { return true }
        guard i < b.count, b[i] == 0x2B || b[i] == 0x2D else { return false }
        i += 1
        guard let offsetHours = number(2), offsetHours < 24 else { return false }
        _ = expect(0x3A)
        guard let offsetMinutes = number(2), offsetMinutes < 60 else { return false }
        return i == b.count
    }
}
