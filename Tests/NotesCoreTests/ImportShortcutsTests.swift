import Foundation
import NotesTestSupport
import Testing

@testable import NotesCore

/// The byte-level shortcuts a Markdown folder's import takes (D-225) give what the general
/// code they skip gives: each is checked against that code (the oracle) over random input
/// (seeded), the shortcut's own cases and the cases it hands on alike.
@Suite struct ImportShortcutsTests {
    /// Path pieces with the characters that could fool a byte-level reading.
    static let pieces = [
        "note", "a.b", ".hidden", "..", ".", "Notes", "café", "東京", "e\u{301}", "x y", "", "-", "~", "a..b", "trail.",
    ]
    static let extensions = [".md", ".MD", ".markdown", ".Markdown", ".txt", ".TXT", ".json", "", ".", ".md.", ".mdx"]

    @Test func aFileStemIsWhatURLGives() {
        let seed = SeededRandom.seed(default: 2251)
        var rng = SeededRandom(seed: seed)
        for _ in 0..<2_000 {
            let folders = (0..<rng.below(3)).map { _ in Self.pieces[rng.below(Self.pieces.count)] }
            let name = Self.pieces[rng.below(Self.pieces.count)] + Self.extensions[rng.below(Self.extensions.count)]
            let path = (rng.below(2) == 0 ? "/" : "") + (folders + [name]).joined(separator: "/")
            guard !path.isEmpty else { continue }
            let expected = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            #expect(MarkdownNote.fileStem(of: path) == expected, "seed \(seed): \(path.debugDescription)")
        }
        #expect(MarkdownNote.fileStem(of: "/vault/Trips/Kraków.md") == "Kraków")
        #expect(MarkdownNote.fileStem(of: "notes/a.b.markdown") == "a.b")
    }

    /// `utf8Contains` (memchr; a store checks every imported note for NUL and every body for `[`)
    /// answers as the generic byte walk, for bytes at either end, inside multi-byte scalars and
    /// in strings that are slices of others.
    @Test func aByteIsFoundWhereTheByteWalkFindsIt() {
        let seed = SeededRandom.seed(default: 2253)
        var rng = SeededRandom(seed: seed)
        let parts = ["a", "[", "\u{0}", "é", "東京", "👩🏽‍💻", " ", "\n", "[[x]]", "\u{7F}", "\u{FFFF}"]
        let bytes: [UInt8] = [0, 0x5B, 0x0A, 0xC3, 0xA9, 0xE6, 0x7F, 0xFF, 0x61]
        for _ in 0..<3_000 {
            let whole = (0..<rng.below(12)).map { _ in parts[rng.below(parts.count)] }.joined()
            let text = rng.below(3) == 0 ? String(whole.dropFirst(rng.below(3))) : whole
            for byte in bytes {
                #expect(text.utf8Contains(byte) == text.utf8.contains(byte), "seed \(seed): \(text.debugDescription)")
            }
        }
    }

    @Test func aFenceLineIsWhatTheTrimmedLineStartsWith() {
        let seed = SeededRandom.seed(default: 2252)
        var rng = SeededRandom(seed: seed)
        let parts = [
            "`", "~", " ", "\t", "\u{A0}", "\u{3000}", "\u{301}", "\u{FE0F}", "a", "é", "\r", "```", "~~~", "x",
        ]
        for _ in 0..<4_000 {
            let line = (0..<rng.below(7)).map { _ in parts[rng.below(parts.count)] }.joined()
            let bytes = Array(("pre\n" + line + "\npost").utf8)
            let range = 4..<(4 + line.utf8.count)
            let trimmed = Whitespace.trimmed(line)
            let expected = trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~")
            #expect(FenceLine.opens(bytes, range) == expected, "seed \(seed): \(line.debugDescription)")
        }
        #expect(FenceLine.opens(Array("  ```swift".utf8), 0..<10))
        #expect(!FenceLine.opens(Array("``".utf8), 0..<2))
    }

    @Test func aTrimmedTagIsWhatFoundationTrims() {
        let seed = SeededRandom.seed(default: 2253)
        var rng = SeededRandom(seed: seed)
        let parts = [
            "a", "#", " ", "\t", "\n", "\r", "\u{B}", "\u{85}", "\u{A0}", "\u{2028}", "\u{3000}", "é", "\u{301}",
            "\u{7F}", "日",
        ]
        for _ in 0..<4_000 {
            let tag = (0..<rng.below(5)).map { _ in parts[rng.below(parts.count)] }.joined()
            #expect(
                Note.trimmedTag(tag) == tag.trimmingCharacters(in: .whitespacesAndNewlines),
                "seed \(seed): \(tag.debugDescription)")
        }
        #expect(Note.normalizedTags([" b", "a", "b ", ""]) == ["a", "b"])
    }
}
