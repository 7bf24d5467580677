import Foundation
import NotesTestSupport
import Testing

@testable import NotesCore

@Suite struct MarkdownNoteTests {
    static func date(_ ms: Int64) -> Date { Date(millisecondsSince1970: ms) }

    /// Every field, compared byte for byte (`String ==` treats é and e + U+0301 as equal).
    func expectSame(_ a: Note, _ b: Note, _ context: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.id == b.id, "\(context)", sourceLocation: sourceLocation)
        #expect(
            Array(a.title.utf8) == Array(b.title.utf8),
            "title \(context): \(a.title.debugDescription) vs \(b.title.debugDescription)",
            sourceLocation: sourceLocation)
        #expect(
            Array(a.body.utf8) == Array(b.body.utf8),
            "body \(context): \(a.body.debugDescription) vs \(b.body.debugDescription)", sourceLocation: sourceLocation)
        #expect(
            a.tags.map { Array($0.utf8) } == b.tags.map { Array($0.utf8) }, "\(context)", sourceLocation: sourceLocation
        )
        #expect(a.isFavorite == b.isFavorite && a.zone == b.zone, "\(context)", sourceLocation: sourceLocation)
        #expect(
            a.createdAt.millisecondsSince1970 == b.createdAt.millisecondsSince1970, "\(context)",
            sourceLocation: sourceLocation)
        #expect(
            a.modifiedAt.millisecondsSince1970 == b.modifiedAt.millisecondsSince1970, "\(context)",
            sourceLocation: sourceLocation)
        #expect(
            a.deletedAt?.millisecondsSince1970 == b.deletedAt?.millisecondsSince1970, "\(context)",
            sourceLocation: sourceLocation)
    }

    static let tricky: [Note] = [
        Note(title: "Groceries", body: "milk\neggs", tags: ["home", "todo"], createdAt: date(1_700_000_000_123)),
        Note(
            zone: "work-2", title: "Say \"hi\"\nto: Zoë — 日本 🎉", body: "\n\nleading blank lines",
            tags: ["a,b", "\"q\"", "café"],
            isFavorite: true, createdAt: date(1_600_000_000_001), modifiedAt: date(1_700_000_000_999),
            deletedAt: date(1_700_000_001_456)),
        Note(title: "Trailing", body: "ends with newlines\n\n\n", createdAt: date(0)),
        Note(title: "Empty body", body: "", createdAt: date(1_700_000_000_000)),
        Note(title: "Heading body", body: "# Heading body\n\n# not the title", createdAt: date(1_700_000_000_000)),
        Note(title: "Fake front matter", body: "---\nid: nope\n---\n", createdAt: date(1_700_000_000_000)),
        Note(title: "", body: "", createdAt: date(1_700_000_000_000)),
        Note(title: "  spaced  ", body: " \n ", createdAt: date(1_700_000_000_000)),
        Note(title: "CR\r\nLF\rtitle", body: "windows\r\nlines\r\n", createdAt: date(-1)),
        Note(
            title: "Decomposed cafe\u{301}", body: "e\u{301}\u{200D}\u{202E}\u{1B}[2J",
            createdAt: date(1_700_000_000_000)),
        Note(title: "---", body: "---", createdAt: date(1_700_000_000_000)),
    ]

    @Test func renderThenParseKeepsEveryField() throws {
        for note in Self.tricky {
            let text = MarkdownNote.render(note)
            expectSame(try MarkdownNote.parse(text), note, text.debugDescription)
        }
    }

    @Test func randomNotesRoundTrip() throws {
        let seed = SeededRandom.seed(default: 3027)
        var rng = SeededRandom(seed: seed)
        let alphabet = Array("ab #-:\"\\\n\n\r\té日🎉\u{301}\u{2028}\u{85}".unicodeScalars)
        for _ in 0..<300 {
            let note = Note(
                title: rng.string(from: alphabet, count: Int.random(in: 0...10, using: &rng)),
                body: rng.string(from: alphabet, count: Int.random(in: 0...40, using: &rng)),
                tags: (0..<Int.random(in: 0...3, using: &rng)).map { _ in rng.string(from: alphabet, count: 3) },
                isFavorite: Bool.random(using: &rng),
                createdAt: Self.date(Int64.random(in: 0...4_000_000_000_000, using: &rng)))
            let text = MarkdownNote.render(note)
            expectSame(try MarkdownNote.parse(text), note, "seed \(seed): \(text.debugDescription)")
        }
    }

    @Test func theRenderedShape() {
        let note = Note(
            id: UUID(uuidString: "2AA3300B-2B71-4343-A20D-672B15AD9A9D")!, title: "Groceries", body: "body…",
            tags: ["todo", "home"], createdAt: Self.date(1_761_819_201_000), modifiedAt: Self.date(1_763_272_461_500))
        #expect(
            MarkdownNote.render(note) == """
                ---
                id: 2aa3300b-2b71-4343-a20d-672b15ad9a9d
                title: "Groceries"
                tags: ["home","todo"]
                favorite: false
                notebook: notes
                created: 2025-10-30T10:13:21.000Z
                modified: 2025-11-16T05:54:21.500Z
                ---
                # Groceries

                body…

                """)
    }

    @Test(arguments: [
        (
            "---\nid: 2aa3300b-2b71-4343-a20d-672b15ad9a9d\ntitle: \"x\"\n", 1,
            "the front matter block has no closing ---"
        ),
        ("---\ntitle: \"x\"\nno colon here\n---\nbody", 4, "not YAML: could not find expected ':'"),
        ("---\nid: 1234\n---\n", 2, "id: expected a UUID"),
        ("---\ntitle: \"x\"\ncreated: last tuesday\n---\n", 3, "created: expected a date"),
        ("---\nmodified: 2025-13-45\n---\n", 2, "modified: expected a date"),
        ("---\n\ntags: {a: 1}\n---\n", 3, "tags: expected a list of tags or text"),
        ("---\ntags: [\"a\"\n---\n", 3, "not YAML: did not find expected ',' or ']'"),
        ("---\ntitle: \"unterminated\n---\n", 2, "not YAML: found unexpected end of stream"),
        ("---\nfavorite: maybe\n---\n", 2, "favorite: expected true or false"),
        ("---\ntitle: a\ntitle: b\n---\n", 2, "a key appears twice: title"),
        ("---\n- a list\n---\n", 2, "expected `key: value` lines"),
        ("---\nx: " + String(repeating: "[", count: 40) + "\n---\n", 2, "the front matter nests deeper than 32 levels"),
    ])
    func brokenFrontMatterNamesTheLine(_ text: String, _ line: Int, _ message: String) {
        #expect(throws: MarkdownNote.FormatError(line: line, message: message)) { try MarkdownNote.parse(text) }
    }

    @Test func aPlainMarkdownFileTakesItsHeadingAsTitleAndTheFileDate() throws {
        let fileDate = Self.date(1_700_000_000_500)
        let note = try MarkdownNote.parse("# Trip to Kraków\n\n\n- train\n- hotel\n", fileDate: fileDate)
        #expect(note.title == "Trip to Kraków" && note.body == "- train\n- hotel")
        #expect(note.createdAt == fileDate && note.modifiedAt == fileDate && note.tags.isEmpty && note.zone == "notes")
        let untitled = try MarkdownNote.parse("just a line\nand another\n", fileDate: fileDate)
        #expect(untitled.title == "just a line" && untitled.body == "just a line\nand another")
    }

    /// Other apps link by file name: a file name that is not the title becomes an alias (kept
    /// with the note's other aliases), unless the file is one CloudNotes wrote (it has an `id`).
    @Test func aFileNameThatIsNotTheTitleBecomesAnAlias() throws {
        let heading = try MarkdownNote.parse("# My idea\n\ntext\n", fileName: "zk-001")
        #expect(heading.title == "My idea" && MarkdownNote.aliases(of: heading) == ["zk-001"])
        let listed = try MarkdownNote.parse(
            "---\ntitle: Kraków\naliases:\n  - Krakau\nsource: x\n---\ntext\n", fileName: "trip 2024")
        #expect(MarkdownNote.aliases(of: listed) == ["Krakau", "trip 2024"])
        #expect(MarkdownNote.keptKeys(listed).map(\.0) == ["aliases", "source"])
        let single = try MarkdownNote.parse("---\ntitle: A\nalias: B\n---\n", fileName: "c")
        #expect(MarkdownNote.aliases(of: single) == ["B", "c"])
        // The same name folded (case, accents) or already an alias adds nothing.
        for (text, name) in [
            ("# Café notes\n", "cafe NOTES"), ("---\ntitle: X\naliases: [zk-002]\n---\n", "ZK-002"),
            ("no heading at all\n", "no heading at all"), ("# Title\n", ""),
        ] {
            let note = try MarkdownNote.parse(text, fileName: name)
            #expect(note.frontMatter == nil || MarkdownNote.aliases(of: note).count <= 1, "\(text)")
            #expect(!MarkdownNote.aliases(of: note).contains(name) || text.contains("aliases"), "\(text)")
        }
        // A file CloudNotes wrote is named after its title made safe: no alias.
        let ours = MarkdownNote.render(Note(title: "a/b: c", body: "x"))
        #expect(try MarkdownNote.parse(ours, fileName: "a-b- c").frontMatter == nil)
        // An alias value no app writes is left as it is.
        let odd = try MarkdownNote.parse("---\ntitle: T\naliases: 5\n---\n", fileName: "t-file")
        #expect(MarkdownNote.keptKeys(odd).first?.1 == .int(5))
    }

    @Test func windowsLineEndsAndAByteOrderMarkAreRead() throws {
        let crlf =
            "\u{FEFF}---\r\nid: 2aa3300b-2b71-4343-a20d-672b15ad9a9d\r\ntitle: \"Win\"\r\ntags: [\"x\"]\r\nfavorite: true\r\n---\r\n# Win\r\n\r\nline 1\r\nline 2\r\n"
        let note = try MarkdownNote.parse(crlf)
        #expect(
            note.idString == "2aa3300b-2b71-4343-a20d-672b15ad9a9d" && note.title == "Win" && note.tags == ["x"]
                && note.isFavorite)
        #expect(note.body == "line 1\r\nline 2")
        let plain = try MarkdownNote.parse("# Plain\r\n\r\ntext\r\n")
        #expect(plain.title == "Plain" && plain.body == "text")
    }

    @Test func otherAppsKeysAndPlainValuesAreAccepted() throws {
        let note = try MarkdownNote.parse(
            """
            ---
            # a comment
            title: Unquoted title
            tags: work, ideas
            pinned: TRUE
            createdAt: 2024-02-03T04:05:06+01:00
            updated: 2024-02-04T00:00:00Z
            source: somewhere
            ---
            text
            """)
        #expect(note.title == "Unquoted title" && note.tags == ["ideas", "work"] && note.isFavorite)
        #expect(note.createdAt.millisecondsSince1970 == 1_706_929_506_000)
        #expect(note.modifiedAt.millisecondsSince1970 == 1_707_004_800_000)
        #expect(note.body == "text")
    }

    /// A file of the corpus's Markdown shape (`Corpus`, as the benchmarks import it): no notebook
    /// line, dates without milliseconds.
    @Test func theBenchmarkCorpusShapeParses() throws {
        let text =
            "---\nid: 21636369-8b52-4b4a-97b7-50923ceb3ffd\ntitle: \"Mädchen sprint Mädchen will\"\ntags: [\"café\", \"日本\"]\nfavorite: false\ncreated: 2025-01-11T07:12:43Z\nmodified: 2025-03-31T02:15:49Z\n---\n# Mädchen sprint Mädchen will\n\n- hiring hotel 👍🏽\n\n## 同期 latency\n"
        let note = try MarkdownNote.parse(text)
        #expect(note.title == "Mädchen sprint Mädchen will" && note.tags == ["café", "日本"] && note.zone == "notes")
        #expect(note.body == "- hiring hotel 👍🏽\n\n## 同期 latency")
        #expect(note.createdAt.millisecondsSince1970 == 1_736_579_563_000)
        #expect(note.modifiedAt.millisecondsSince1970 == 1_743_387_349_000)
    }

    @Test func theCorpusMarkdownFilesParseToTheirNotes() throws {
        for expected in Corpus(count: 40, seed: 11) {
            let note = try MarkdownNote.parse(expected.markdown)
            #expect(note.idString == expected.id)
            #expect(note.title == expected.title)
            #expect(Array(note.body.utf8) == Array(expected.body.utf8), "\(expected.id)")
            #expect(note.tags == Note.normalizedTags(expected.tags))
            #expect(note.isFavorite == expected.isFavorite)
            #expect(note.createdAt == ISODate.parse(expected.createdAt))
            #expect(note.modifiedAt == ISODate.parse(expected.modifiedAt))
        }
    }
}
