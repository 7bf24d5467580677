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
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let strategies: [Date.ISO8601FormatStyle] = [
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted),
            .iso8601.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .omitted),
            .iso8601.year().month().day().time(includingFractionalSeconds: true),
            .iso8601.year().month().day().time(includingFractionalSeconds: false),
            .iso8601.year().month().day(),
        ]
        for strategy in strategies {
            if let date = try? Date(trimmed, strategy: strategy) { return date }
        }
        return nil
    }
}
