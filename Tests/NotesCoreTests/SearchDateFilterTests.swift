import Foundation
import NotesCore
import Testing

/// `created:` and `modified:` values: what each form means, in a fixed zone against a fixed now.
struct SearchDateFilterTests {
    /// Tokyo has no daylight saving; New York's changes on 2025-03-09.
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    static let newYork = TimeZone(identifier: "America/New_York")!

    /// Milliseconds of a wall-clock time in `zone`.
    static func ms(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ zone: TimeZone = tokyo) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h))!.millisecondsSince1970
    }

    static func interval(
        _ value: String, now: Date = Date(millisecondsSince1970: ms(2025, 3, 15, 10)), _ zone: TimeZone = tokyo
    )
        -> (Int64?, Int64?)?
    {
        SearchDateFilter(field: .created, value: value)?.interval(now: now, in: zone)
    }

    @Test func aDateAsWrittenIsAllOfItself() {
        #expect(Self.interval("2025-01-03")! == (Self.ms(2025, 1, 3), Self.ms(2025, 1, 4)))
        #expect(Self.interval("2025-01")! == (Self.ms(2025, 1, 1), Self.ms(2025, 2, 1)))
        #expect(Self.interval("2024")! == (Self.ms(2024, 1, 1), Self.ms(2025, 1, 1)))
        #expect(Self.interval("2024-02-29")! == (Self.ms(2024, 2, 29), Self.ms(2024, 3, 1)))
    }

    @Test func comparisonsStartAfterOrEndBeforeTheWholeDate() {
        #expect(Self.interval(">2025-01")! == (Self.ms(2025, 2, 1), nil))
        #expect(Self.interval(">=2025-01")! == (Self.ms(2025, 1, 1), nil))
        #expect(Self.interval("<2025-01")! == (nil, Self.ms(2025, 1, 1)))
        #expect(Self.interval("<=2025-01-31")! == (nil, Self.ms(2025, 2, 1)))
    }

    @Test func rangesIncludeBothEnds() {
        #expect(Self.interval("2025-01..2025-03")! == (Self.ms(2025, 1, 1), Self.ms(2025, 4, 1)))
        #expect(Self.interval("2024-12-30..2025-01-02")! == (Self.ms(2024, 12, 30), Self.ms(2025, 1, 3)))
        #expect(Self.interval("2025-02..")! == (Self.ms(2025, 2, 1), nil))
        #expect(Self.interval("..2024")! == (nil, Self.ms(2025, 1, 1)))
    }

    @Test func relativeFormsCountFromNowInTheLocalZone() {
        // 2025-03-15 10:00 in Tokyo.
        #expect(Self.interval("today")! == (Self.ms(2025, 3, 15), Self.ms(2025, 3, 16)))
        #expect(Self.interval("yesterday")! == (Self.ms(2025, 3, 14), Self.ms(2025, 3, 15)))
        #expect(Self.interval("<7d")! == (Self.ms(2025, 3, 8, 10), nil))
        #expect(Self.interval("7d")! == (Self.ms(2025, 3, 8, 10), nil))
        #expect(Self.interval(">7d")! == (nil, Self.ms(2025, 3, 8, 10)))
        #expect(Self.interval("<2w")! == (Self.ms(2025, 3, 1, 10), nil))
        #expect(Self.interval("<1m")! == (Self.ms(2025, 2, 15, 10), nil))
        #expect(Self.interval("<12h")! == (Self.ms(2025, 3, 14, 22), nil))
        // The same instant is another day in New York; 7 days back crosses its DST change.
        let now = Date(millisecondsSince1970: Self.ms(2025, 3, 15, 10))
        #expect(
            Self.interval("today", now: now, Self.newYork)!
                == (Self.ms(2025, 3, 14, 0, Self.newYork), Self.ms(2025, 3, 15, 0, Self.newYork)))
        #expect(
            Self.interval("<7d", now: now, Self.newYork)! == (Self.ms(2025, 3, 7, 21, Self.newYork), nil))
    }

    @Test func notADateIsNil() {
        for value in ["2025-13", "2025-02-30", "25-01", "2025-1", "soon", "", "..", "7x", ">", "2025-01..x"] {
            #expect(SearchDateFilter(field: .modified, value: value) == nil, "\(value)")
        }
    }
}
