import Foundation
import NotesCore
import Testing

@Suite struct NoteTemplateTests {
    @Test func placeholdersAreFilledInTheGivenTimeZone() throws {
        let date = Date(timeIntervalSince1970: 1_796_072_700)  // 2026-11-30T21:05:00Z
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(
            NoteTemplate.expand("{{date}} {{time}} {{title}}", date: date, title: "T", timeZone: utc)
                == "2026-11-30 21:05 T")
        #expect(NoteTemplate.expand("{{date}} {{time}}", date: date, title: "", timeZone: tokyo) == "2026-12-01 06:05")
        #expect(NoteTemplate.expand("{{other}} {date}", date: date, title: "", timeZone: utc) == "{{other}} {date}")
    }
}
