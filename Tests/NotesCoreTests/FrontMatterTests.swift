import Foundation
import NotesTestSupport
import Testing
import Yams

@testable import NotesCore

/// YAML front matter as other apps write it, read with Yams (`FrontMatter`, `MarkdownNote`).
@Suite struct FrontMatterTests {
    /// An Obsidian note (Obsidian 1.5 "Properties" writes lists as `key:` then `  - item`, dates
    /// as `YYYY-MM-DD` or `YYYY-MM-DDTHH:mm`, and keeps whatever keys plugins add).
    static let obsidian = """
        ---
        aliases:
          - Kraków trip
          - 克拉科夫
        tags:
          - travel
          - "#poland"
          - trips/2024
        created: 2024-03-01T09:30
        updated: 2024-03-02
        cssclasses:
          - wide
        rating: 4
        source: https://example.com/a?b=c
        ---
        # Trip to Kraków

        See [[Packing list]] and [[Budget|the budget]].

        """

    @Test func anObsidianNoteKeepsListsDatesAndUnknownKeys() throws {
        let note = try MarkdownNote.parse(Self.obsidian, fileName: "Trip to Kraków")
        #expect(note.title == "Trip to Kraków")
        #expect(note.body == "See [[Packing list]] and [[Budget|the budget]].")
        #expect(note.tags == ["poland", "travel", "trips/2024"])
        #expect(note.createdAt.millisecondsSince1970 == 1_709_285_400_000)
        #expect(note.modifiedAt.millisecondsSince1970 == 1_709_337_600_000)
        #expect(MarkdownNote.aliases(of: note) == ["Kraków trip", "克拉科夫"])
        let kept = try JSONValue(parsing: Data(try #require(note.frontMatter).utf8))
        #expect(
            kept
                == .object([
                    "aliases": .array([.string("Kraków trip"), .string("克拉科夫")]),
                    "cssclasses": .array([.string("wide")]), "rating": .int(4),
                    "source": .string("https://example.com/a?b=c"),
                ]))
        // Written back on export, and read again to the same note.
        let rendered = MarkdownNote.render(note)
        #expect(rendered.contains("\naliases: [\"Kraków trip\", \"克拉科夫\"]\n"))
        #expect(rendered.contains("\nrating: 4\n"))
        let again = try MarkdownNote.parse(rendered)
        #expect(again.frontMatter == note.frontMatter && again.title == note.title && again.tags == note.tags)
        #expect(Array(again.body.utf8) == Array(note.body.utf8))
    }

    /// Joplin 2.x/3.x "Markdown + Front Matter" export: title, `updated`/`created` as
    /// `YYYY-MM-DD HH:mm:ssZ`, tags as a list, location keys, then a blank line and the title
    /// again as a heading.
    @Test func aJoplinExportReadsTitleDatesAndTags() throws {
        let text = """
            ---
            title: Meeting notes
            updated: 2023-05-03 09:07:52Z
            created: 2023-05-03 09:07:27Z
            latitude: 48.85660000
            longitude: 2.35220000
            altitude: 0.0000
            tags:
              - work
              - meetings
            ---

            # Meeting notes

            - agenda

            """
        let note = try MarkdownNote.parse(text)
        #expect(note.title == "Meeting notes" && note.body == "- agenda")
        #expect(note.tags == ["meetings", "work"])
        #expect(note.createdAt.millisecondsSince1970 == 1_683_104_847_000)
        #expect(note.modifiedAt.millisecondsSince1970 == 1_683_104_872_000)
        #expect(note.frontMatter == #"{"altitude":"0.0000","latitude":"48.85660000","longitude":"2.35220000"}"#)
    }

    @Test(
        arguments: [
            ("2024-01-15", 1_705_276_800_000),
            ("2024-01-15T10:30", 1_705_314_600_000),
            ("2024-01-15 10:30", 1_705_314_600_000),
            ("2024-01-15T10:30:05", 1_705_314_605_000),
            ("2024-01-15 10:30:05Z", 1_705_314_605_000),
            ("2024-01-15 10:30:05 +01:00", 1_705_311_005_000),
            ("2024-01-15T10:30:05.250+01:00", 1_705_311_005_250),
            ("2024-01-15T10:30+02:00", 1_705_307_400_000),
        ] as [(String, Int64)])
    func datesInTheirCommonForms(_ text: String, _ ms: Int64) throws {
        #expect(FrontMatter.date(text)?.millisecondsSince1970 == ms, "\(text)")
        let note = try MarkdownNote.parse("---\ncreated: \(text)\n---\nx")
        #expect(note.createdAt.millisecondsSince1970 == ms, "\(text)")
    }

    @Test func tagsAsTextWithOrWithoutMarks() throws {
        #expect(try MarkdownNote.parse("---\ntags: \"a, #b , c d\"\n---\n").tags == ["a", "b", "c d"])
        #expect(try MarkdownNote.parse("---\ntags: one two\n---\n").tags == ["one", "two"])
        #expect(try MarkdownNote.parse("---\ntags: \"#x #y\"\n---\n").tags == ["x", "y"])
        #expect(try MarkdownNote.parse("---\ntags:\n---\n").tags == [])
        #expect(try MarkdownNote.parse("---\ntags: [2024, true]\n---\n").tags == ["2024", "true"])
    }

    @Test func theTitleIsFrontMatterThenHeadingThenFileName() throws {
        #expect(try MarkdownNote.parse("---\ntitle: T\n---\n# H\nbody", fileName: "F").title == "T")
        let heading = try MarkdownNote.parse("---\ntags: [a]\n---\n# H\n\nbody", fileName: "F")
        #expect(heading.title == "H" && heading.body == "body")
        let named = try MarkdownNote.parse("---\ntags: [a]\n---\nbody", fileName: "F")
        #expect(named.title == "F" && named.body == "body")
        #expect(try MarkdownNote.parse("no heading\n", fileName: "Plain file").title == "Plain file")
        #expect(try MarkdownNote.parse("# Heading\n", fileName: "Plain file").title == "Heading")
    }

    /// A billion-laughs block (aliases that expand exponentially) is refused, not expanded.
    @Test func aliasExpansionIsBounded() {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1..<8 {
            yaml += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        #expect(throws: MarkdownNote.FormatError.self) { try MarkdownNote.parse("---\n" + yaml + "---\nbody") }
    }

    /// Every scalar YAML treats specially (line breaks NEL, LS, PS; a byte order mark; C0 and
    /// C1 controls; quotes and backslashes) reads back byte for byte from `quoted`.
    @Test func quotedTextReadsBackByteForByte() throws {
        let seed = SeededRandom.seed(default: 1515)
        var rng = SeededRandom(seed: seed)
        let alphabet = Array(
            "a \"'\\:#-[]{}&*!|>%@`\u{0}\u{1}\u{7}\t\n\r\u{1B}\u{7F}\u{80}\u{85}\u{9F}\u{A0}\u{2028}\u{2029}\u{FEFF}\u{FFFE}é日🎉\u{301}"
                .unicodeScalars)
        for _ in 0..<300 {
            let text = rng.string(from: alphabet, count: Int.random(in: 0...12, using: &rng))
            // NUL is refused before it gets here.
            guard !text.unicodeScalars.contains("\u{0}") else { continue }
            let entries = try FrontMatter.entries("k: " + FrontMatter.quoted(text), firstLine: 2)
            #expect(
                entries.first?.text.map { Array($0.utf8) } == Array(text.utf8), "seed \(seed): \(text.debugDescription)"
            )
        }
    }
}

extension FrontMatterTests {
    /// A title that starts with U+FEFF and then a combining mark (found by the export round
    /// trip, seed 12345): the mark and `\uFEFF`'s last `F` make one character.
    @Test func aLeadingByteOrderMarkBeforeACombiningMarkIsKept() throws {
        let title = "\u{FEFF}\u{301}?-x"
        let note = try MarkdownNote.parse(MarkdownNote.render(Note(title: title, body: "body")))
        #expect(Array(note.title.unicodeScalars) == Array(title.unicodeScalars))
        #expect(note.body == "body")
    }
}

extension FrontMatterTests {
    /// The front matter's reduced resolver (null, bool, int) reads every block as Yams's default
    /// resolver does (the oracle): plain scalars of every YAML type and of none, in lists, maps
    /// and keys, duplicate keys included (seeded).
    @Test func theReducedResolverReadsWhatTheDefaultOneReads() throws {
        let seed = SeededRandom.seed(default: 2230)
        var rng = SeededRandom(seed: seed)
        let scalars = [
            "0", "-5", "+3", "1_000", "0b101", "0o17", "017", "0x1F", "1:30", "190:20:30", "1.5", "-.5", "1e3",
            "1_0.5", ".inf", "-.Inf", ".NaN", "yes", "No", "ON", "off", "true", "FALSE", "y", "~", "null", "NULL",
            "", "2024-03-01", "2024-03-01T09:30:00Z", "2001-12-14 21:59:43.10 -5", "<<", "=", "café", "a b",
            "#tag", "https://example.com/a?b=c", "'quoted'", "\"5\"", "[1, yes, ~]", "{a: 1, b: off}",
        ]
        let keys = ["title", "tags", "1", "yes", "~", "<<", "=", "1.5", "created", "title"]
        for _ in 0..<400 {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                let key = keys[Int.random(in: 0..<keys.count, using: &rng)]
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    lines.append("\(key): \(scalars[Int.random(in: 0..<scalars.count, using: &rng)])")
                case 1:
                    lines.append("\(key):")
                    for _ in 0..<Int.random(in: 1...3, using: &rng) {
                        lines.append("  - \(scalars[Int.random(in: 0..<scalars.count, using: &rng)])")
                    }
                default:
                    lines.append("\(key):")
                    for inner in keys.shuffled(using: &rng).prefix(2) {
                        lines.append("  \(inner): \(scalars[Int.random(in: 0..<scalars.count, using: &rng)])")
                    }
                }
            }
            let yaml = lines.joined(separator: "\n")
            let expected = Result { try FrontMatter.entries(yaml, firstLine: 2, resolver: .default) }
            let actual = Result { try FrontMatter.entries(yaml, firstLine: 2) }
            switch (expected, actual) {
            case (.success(let a), .success(let b)):
                #expect(a.map(\.key) == b.map(\.key), "seed \(seed):\n\(yaml)")
                #expect(a.map(\.value) == b.map(\.value), "seed \(seed):\n\(yaml)")
                #expect(a.map(\.text) == b.map(\.text), "seed \(seed):\n\(yaml)")
                #expect(a.map(\.line) == b.map(\.line), "seed \(seed):\n\(yaml)")
            case (.failure(let a), .failure(let b)):
                #expect(a as? FrontMatter.Failure == b as? FrontMatter.Failure, "seed \(seed):\n\(yaml)")
            default:
                Issue.record("seed \(seed): \(expected) against \(actual) for\n\(yaml)")
            }
        }
    }
}

extension FrontMatterTests {
    /// Blocks of `key: value` lines are read without Yams (`FrontMatter.lineEntries`, D-225);
    /// whenever that reading answers, Yams with its default resolver (the oracle) reads the
    /// block to the same keys, values, texts and lines. Values of every YAML type and spelling,
    /// quotes, lists, characters YAML refuses or reads as line breaks, and lines that are not
    /// `key: value` at all (seeded; a fair share of the blocks must take the fast reading).
    @Test func blocksOfKeyValueLinesReadAsYamsReadsThem() throws {
        let seed = SeededRandom.seed(default: 2250)
        var rng = SeededRandom(seed: seed)
        let words = [
            "Him garden", "café", "東京 trip", "a:b", "a: b", "ends:", "a #b", "C#", "https://x.y/z?q=1",
            "2025-06-30T05:15:55Z", "2025-06-30", "b3850b9d-a206-402c-bfee-508fc33a5ded",
            "00001db4-afaf-4006-80a6-036d82a873d0", "0", "012", "09", "123", "-4", "99999999999999999999",
            "123456789012345678", "0x1F", "0b11", "0o17", "1_000", "1:30", "1e3", "1.5", "true", "True", "TRUE",
            "tRue", "false", "yes", "No", "on", "OFF", "y", "n", "null", "Null", "~", "🚀 launch", "x\u{85}y",
            "x\u{2028}y", "\u{FEFF}x", "x\u{FEFF}", "a\tb", "a\u{7F}b", "a\u{9F}", "x\u{FFFE}", "\u{A0}lead",
            "trail\u{3000}", "e\u{301}", "-dash", "*star", "&anchor", "!tag", "|", ">", "%", "@at", "`tick", "?q",
            "a, b", "[x]", "{a: 1}", "a]b", "a'b", "a\"b", "it's", "x\\y", "a b  c", "ß", "Ünïcödé", "ab:",
        ]
        func item() -> String {
            let word = words[Int.random(in: 0..<words.count, using: &rng)]
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: return "\"\(word)\""
            case 1: return "'\(word)'"
            case 2: return "\"\\u00e9\(word)\""
            default: return word
            }
        }
        func value() -> String {
            switch Int.random(in: 0..<8, using: &rng) {
            case 0:
                let items = (0..<Int.random(in: 0...3, using: &rng)).map { _ in item() }
                return "[" + items.joined(separator: ["", ", ", ","][Int.random(in: 0..<3, using: &rng)]) + "]"
            case 1:
                return ["[]", "[ ]", "[a, ]", "[a,,b]", "[[a]]", "[a] x", "{}", ""][Int.random(in: 0..<8, using: &rng)]
            default: return item()
            }
        }
        let keys = ["title", "tags", "id", "created", "Title", "a-b", "_x", "yes", "on", "null", "k y", "2k", "é"]
        var fast = 0
        let blocks = 2_000
        for _ in 0..<blocks {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let key = keys[Int.random(in: 0..<keys.count, using: &rng)]
                switch Int.random(in: 0..<14, using: &rng) {
                case 0: lines.append("\(key):")
                case 1: lines.append("\(key):   ")
                case 2: lines.append("\(key):  \(value())  ")
                case 3: lines.append("\(key):\(value())")
                case 4: lines.append(" \(key): \(value())")
                case 5:
                    lines.append(
                        ["# note", "", "- item", "key: v # c", "...", "%YAML 1.1"][Int.random(in: 0..<6, using: &rng)])
                case 6: lines.append("\(key):\n  - \(item())")
                default: lines.append("\(key): \(value())")
                }
            }
            let yaml = lines.joined(separator: "\n")
            guard let read = FrontMatter.lineEntries(yaml, firstLine: 2) else { continue }
            fast += 1
            let oracle = Result { try FrontMatter.entries(yaml, firstLine: 2, resolver: .default) }
            guard case .success(let expected) = oracle else {
                Issue.record("seed \(seed): Yams refuses what the line reading took:\n\(yaml)\n\(oracle)")
                continue
            }
            #expect(read.map(\.key) == expected.map(\.key), "seed \(seed):\n\(yaml)")
            #expect(read.map(\.value) == expected.map(\.value), "seed \(seed):\n\(yaml)")
            #expect(read.map(\.text) == expected.map(\.text), "seed \(seed):\n\(yaml)")
            #expect(read.map(\.line) == expected.map(\.line), "seed \(seed):\n\(yaml)")
        }
        #expect(fast > blocks / 10, "seed \(seed): only \(fast) of \(blocks) blocks were read line by line")
    }

    /// What CloudNotes's export and Obsidian write goes through the line reading; a comment or
    /// an indented list goes to Yams.
    @Test func theCommonBlocksAreReadLineByLine() throws {
        let ours = """
            id: b3850b9d-a206-402c-bfee-508fc33a5ded
            title: "Him garden"
            tags: [work, "2024"]
            favorite: true
            created: 2025-06-30T05:15:55Z
            rating: 4
            """
        let entries = try #require(FrontMatter.lineEntries(ours, firstLine: 2))
        #expect(entries.map(\.key) == ["id", "title", "tags", "favorite", "created", "rating"])
        #expect(
            entries.map(\.value) == [
                .string("b3850b9d-a206-402c-bfee-508fc33a5ded"), .string("Him garden"),
                .array([.string("work"), .string("2024")]), .bool(true), .string("2025-06-30T05:15:55Z"), .int(4),
            ])
        #expect(entries.map(\.line) == [2, 3, 4, 5, 6, 7])
        #expect(FrontMatter.lineEntries("title: x # a comment", firstLine: 2) == nil)
        #expect(FrontMatter.lineEntries("tags:\n  - a", firstLine: 2) == nil)
        #expect(FrontMatter.lineEntries("title: a\ntitle: b", firstLine: 2) == nil)
        #expect(throws: FrontMatter.Failure.self) { try FrontMatter.entries("title: a\ntitle: b", firstLine: 2) }
    }
}
