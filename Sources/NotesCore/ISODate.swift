import Foundation

/// ISO 8601 dates in UTC with milliseconds, as exports and `--json` write them.
public enum ISODate {
    public static func string(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// Parses with or without fractional seconds; nil if not ISO 8601.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let d = try? Date(trimmed, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)) {
            return d
        }
        return try? Date(trimmed, strategy: .iso8601)
    }
}
