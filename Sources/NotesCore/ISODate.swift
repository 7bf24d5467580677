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
        return counted(seconds: seconds, milliseconds: fraction) ?? formatted(seconds: seconds, milliseconds: fraction)
    }

    /// `string`'s text by Foundation's format style (any year).
    static func formatted(seconds: Int64, milliseconds fraction: Int64) -> String {
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds))
            .formatted(
                .iso8601.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .omitted))
        let digits = String(fraction)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// `string`'s text for a time from 1900 through 9999, counted directly (the civil date of a
    /// day count, H. Hinnant's civil_from_days, the inverse of `wholeSecondsUTC`'s); nil for
    /// any other year, which Foundation's format style writes. The style was a tenth of a
    /// search that prints every match as JSON (`ISODateTests` compares the two).
    static func counted(seconds: Int64, milliseconds: Int64) -> String? {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        guard (1900...9999).contains(year) else { return nil }
        var text = [UInt8]()
        text.reserveCapacity(24)
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(0x30 + (value / divisor) % 10))
                divisor /= 10
            }
        }
        digits(year, 4)
        text.append(0x2D)
        digits(month, 2)
        text.append(0x2D)
        digits(day, 2)
        text.append(0x54)
        digits(secondOfDay / 3600, 2)
        text.append(0x3A)
        digits(secondOfDay / 60 % 60, 2)
        text.append(0x3A)
        digits(secondOfDay % 60, 2)
        text.append(0x2E)
        digits(Int(milliseconds), 3)
        text.append(0x5A)
        return String(decoding: text, as: UTF8.self)
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
