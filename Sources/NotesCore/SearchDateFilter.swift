import Foundation

/// A condition on when a note was created or modified (`created:2025-01-03`, `created:>2025-01`,
/// `modified:<7d`, `created:today`, `modified:2025-01..2025-03`), as typed; `interval(now:in:)`
/// resolves it in a time zone against a given "now".
///
/// A date as written covers all of itself: `2025-01` is the whole of January, so `>2025-01`
/// starts on February 1 and `2025-01..2025-03` ends with March 31. An age (`7d`) is the instant
/// that long before now: `<7d` is newer than it, `>7d` older, a bare `7d` means `<7d`.
public struct SearchDateFilter: Sendable, Equatable {
    public enum Field: String, Sendable, CaseIterable {
        case created, modified
    }

    /// A point or span of time as written.
    public enum Bound: Sendable, Equatable {
        case year(Int)
        case month(Int, Int)
        case day(Int, Int, Int)
        case today
        case yesterday
        /// That many units (`h`, `d`, `w`, `m` for months, `y`) before now.
        case ago(Int, Calendar.Component)
    }

    public enum Comparison: Sendable, Equatable {
        /// Within the bound (a bare date), or newer than an age.
        case within
        case after, atOrAfter, before, atOrBefore
        /// From the start of the first through the end of the second; nil is open.
        case range(Bound?, Bound?)
    }

    public var field: Field
    public var comparison: Comparison
    /// The bound of every comparison but `range`.
    public var bound: Bound?

    public init(field: Field, comparison: Comparison, bound: Bound?) {
        self.field = field
        self.comparison = comparison
        self.bound = bound
    }

    /// Parses the value after `created:` or `modified:`; nil when it is not a date.
    public init?(field: Field, value: String) {
        self.field = field
        if let dots = value.range(of: "..") {
            let from = value[..<dots.lowerBound]
            let through = value[dots.upperBound...]
            let first = from.isEmpty ? nil : Self.bound(from)
            let last = through.isEmpty ? nil : Self.bound(through)
            guard from.isEmpty || first != nil, through.isEmpty || last != nil, first != nil || last != nil else {
                return nil
            }
            comparison = .range(first, last)
            bound = nil
            return
        }
        var text = Substring(value)
        comparison = .within
        for (prefix, kind) in [
            (">=", Comparison.atOrAfter), ("<=", .atOrBefore), (">", .after), ("<", .before),
        ] where text.hasPrefix(prefix) {
            comparison = kind
            text = text.dropFirst(prefix.count)
            break
        }
        guard let parsed = Self.bound(text) else { return nil }
        bound = parsed
    }

    /// `2025`, `2025-01`, `2025-01-03`, `today`, `yesterday`, or an age: `12h`, `7d`, `2w`,
    /// `3m` (months), `1y`.
    static func bound(_ text: Substring) -> Bound? {
        switch text.lowercased() {
        case "today": return .today
        case "yesterday": return .yesterday
        default: break
        }
        if let unit = text.last, let count = Int(text.dropLast()), count >= 0, count <= 100_000,
            text.dropLast().allSatisfy(\.isASCII)
        {
            let units: [Character: Calendar.Component] = [
                "h": .hour, "d": .day, "w": .weekOfYear, "m": .month, "y": .year,
            ]
            if let component = units[Character(unit.lowercased())] { return .ago(count, component) }
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            parts.dropFirst().allSatisfy({ $0.count == 2 }),
            let year = Int(parts[0]), year >= 1
        else { return nil }
        guard parts.count > 1, let month = Int(parts[1]) else { return .year(year) }
        guard (1...12).contains(month) else { return nil }
        guard parts.count > 2, let day = Int(parts[2]) else { return .month(year, month) }
        let days = [
            31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
        ]
        guard (1...days[month - 1]).contains(day) else { return nil }
        return .day(year, month, day)
    }

    /// The span this condition allows, in milliseconds since 1970: from `lower` (inclusive,
    /// nil: no limit) to `upper` (exclusive, nil: no limit). Dates are read in `timeZone`.
    public func interval(now: Date, in timeZone: TimeZone) -> (lower: Int64?, upper: Int64?) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        func span(_ bound: Bound) -> (start: Date, end: Date, isAge: Bool) {
            func whole(_ components: DateComponents, _ length: Calendar.Component) -> (Date, Date, Bool) {
                let start = calendar.date(from: components) ?? now
                return (start, calendar.date(byAdding: length, value: 1, to: start) ?? start, false)
            }
            switch bound {
            case .year(let y): return whole(DateComponents(year: y, month: 1, day: 1), .year)
            case .month(let y, let m): return whole(DateComponents(year: y, month: m, day: 1), .month)
            case .day(let y, let m, let d): return whole(DateComponents(year: y, month: m, day: d), .day)
            case .today:
                let start = calendar.startOfDay(for: now)
                return (start, calendar.date(byAdding: .day, value: 1, to: start) ?? start, false)
            case .yesterday:
                let end = calendar.startOfDay(for: now)
                return (calendar.date(byAdding: .day, value: -1, to: end) ?? end, end, false)
            case .ago(let count, let unit):
                let instant = calendar.date(byAdding: unit, value: -count, to: now) ?? now
                return (instant, instant, true)
            }
        }
        func ms(_ date: Date) -> Int64 { date.millisecondsSince1970 }
        switch comparison {
        case .range(let first, let last):
            return (first.map { ms(span($0).start) }, last.map { ms(span($0).end) })
        default:
            guard let bound else { return (nil, nil) }
            let (start, end, isAge) = span(bound)
            if isAge {
                // An age compares the other way: `<7d` is less than 7 days old, so newer.
                switch comparison {
                case .within, .before, .atOrBefore: return (ms(start), nil)
                default: return (nil, ms(start))
                }
            }
            switch comparison {
            case .after: return (ms(end), nil)
            case .atOrAfter: return (ms(start), nil)
            case .before: return (nil, ms(start))
            case .atOrBefore: return (nil, ms(end))
            default: return (ms(start), ms(end))
            }
        }
    }
}
