import Foundation
import NotesTestSupport
import Testing

@testable import NotesCore

@Suite struct ISODateTests {
    @Test(arguments: [
        (Int64(1_700_000_000_123), "2023-11-14T22:13:20.123Z"), (1_700_000_000_001, "2023-11-14T22:13:20.001Z"),
        (1_700_000_000_999, "2023-11-14T22:13:20.999Z"), (0, "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"), (-1000, "1969-12-31T23:59:59.000Z"),
    ])
    func formatsMillisecondsExactly(_ ms: Int64, _ text: String) {
        #expect(ISODate.string(Date(millisecondsSince1970: ms)) == text)
        #expect(ISODate.parse(text)?.millisecondsSince1970 == ms)
    }

    @Test func everyMillisecondRoundTrips() {
        let seed = SeededRandom.seed(default: 8601)
        var rng = SeededRandom(seed: seed)
        for _ in 0..<2000 {
            let ms = Int64.random(in: -2_000_000_000_000...4_000_000_000_000, using: &rng)
            let text = ISODate.string(Date(millisecondsSince1970: ms))
            #expect(ISODate.parse(text)?.millisecondsSince1970 == ms, "seed \(seed): \(ms) → \(text)")
        }
    }

    /// Dates are written by counting as Foundation's format style writes them: random
    /// milliseconds from before 1900 to past 9999 (outside 1900-9999 the style writes them),
    /// and the days calendars get wrong.
    @Test func stringsAreCountedAsFoundationFormatsThem() {
        let seed = SeededRandom.seed(default: 8601)
        var rng = SeededRandom(seed: seed)
        var times: [Int64] = [
            -2_208_988_800_000, -2_208_988_800_001, 951_782_400_000, 4_107_542_400_000, -1, 0, 999,
            253_402_300_799_999, 253_402_300_800_000, 1_700_000_000_123,
        ]
        for _ in 0..<5000 { times.append(Int64.random(in: -3_000_000_000_000...260_000_000_000_000, using: &rng)) }
        var counted = 0
        for time in times {
            // (A date is written as the milliseconds of the store's time range it is clamped to.)
            let ms = Date(millisecondsSince1970: time).millisecondsSince1970
            let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
            let fraction = ms - seconds * 1000
            let expected = ISODate.formatted(seconds: seconds, milliseconds: fraction)
            #expect(ISODate.string(Date(millisecondsSince1970: time)) == expected, "seed \(seed): \(time)")
            if ISODate.counted(seconds: seconds, milliseconds: fraction) != nil { counted += 1 }
        }
        #expect(counted > 2000, "most of them are counted")
    }

    /// The counted path for `YYYY-MM-DDTHH:MM:SSZ` gives the very date Foundation's parser
    /// gives, over random seconds from 1900 to 9999 and the days calendars get wrong.
    @Test func wholeSecondsAreCountedAsFoundationParsesThem() throws {
        let seed = SeededRandom.seed(default: 1900)
        var rng = SeededRandom(seed: seed)
        let foundation = Date.ISO8601FormatStyle.iso8601.year().month().day().time(includingFractionalSeconds: false)
        var texts = [
            "1900-01-01T00:00:00Z", "1900-02-28T23:59:59Z", "1900-03-01T00:00:00Z", "2000-02-29T12:00:00Z",
            "2100-03-01T00:00:00Z", "1969-12-31T23:59:59Z", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
        ]
        for _ in 0..<3000 {
            let seconds = Int64.random(in: -2_208_988_800...253_402_300_799, using: &rng)
            texts.append(String(ISODate.string(Date(millisecondsSince1970: seconds * 1000)).prefix(19)) + "Z")
        }
        for text in texts {
            let counted = try #require(ISODate.wholeSecondsUTC(Array(text.utf8)), "seed \(seed): \(text)")
            #expect(counted == (try Date(text, strategy: foundation)), "seed \(seed): \(text)")
            #expect(ISODate.parse(text) == counted, "seed \(seed): \(text)")
        }
        // Other forms go to Foundation's parser.
        #expect(ISODate.wholeSecondsUTC(Array("1899-12-31T23:59:59Z".utf8)) == nil)
        #expect(ISODate.wholeSecondsUTC(Array("2023-05-01T10:00:00.5Z".utf8)) == nil)
        #expect(ISODate.wholeSecondsUTC(Array("2023-05-01T10:00:00+02:00".utf8)) == nil)
    }

    @Test func offsetsAreHonouredAndMissingOnesMeanUTC() {
        #expect(ISODate.parse("2023-05-01T10:00:00+02:00")?.millisecondsSince1970 == 1_682_928_000_000)
        #expect(ISODate.parse("2023-05-01T10:00:00.250-01:30")?.millisecondsSince1970 == 1_682_940_600_250)
        #expect(ISODate.parse("2023-05-01T10:00:00Z")?.millisecondsSince1970 == 1_682_935_200_000)
        #expect(ISODate.parse(" 2023-05-01T10:00:00 ")?.millisecondsSince1970 == 1_682_935_200_000)
        #expect(ISODate.parse("2023-05-01")?.millisecondsSince1970 == 1_682_899_200_000)
        #expect(ISODate.parse("yesterday") == nil)
        #expect(ISODate.parse("") == nil)
    }

    /// Foundation alone took these: a day rolled into the next month, a six-digit year, and a
    /// long fraction whose time was silently dropped (found by MarkdownNoteFuzzTests).
    @Test(arguments: [
        "2025-02-30T18:32:51.069Z", "142025-02-03T18:32:51.069Z", "2025-11-16T05:54:21.000000000000001Z",
        "2023-13-01", "2023-04-31", "2023-05-01T24:00:00Z", "2023-05-01T10:60:00Z", "2023-05-01T10:00:00+2:00",
        "2023-05-01T10:00:00Zjunk", "2023-5-01",
    ])
    func impossibleOrMalformedDatesAreRefused(_ text: String) {
        #expect(ISODate.parse(text) == nil)
    }

    @Test func leapDaysFollowTheGregorianRule() {
        #expect(ISODate.parse("2024-02-29") != nil)
        #expect(ISODate.parse("2000-02-29") != nil)
        #expect(ISODate.parse("1900-02-29") == nil)
        #expect(ISODate.parse("2023-02-29") == nil)
        #expect(ISODate.parse("2023-05-01T10:00:00.123456789Z")?.millisecondsSince1970 == 1_682_935_200_123)
        #expect(ISODate.parse("2023-05-01T10:00:00+0200")?.millisecondsSince1970 == 1_682_928_000_000)
    }
}
