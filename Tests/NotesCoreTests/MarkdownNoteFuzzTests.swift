import Foundation
import NotesTestSupport
import Testing

@testable import NotesCore

/// Markdown files with damaged front matter (ARCHITECTURE §7): `MarkdownNote.parse` returns a note
/// or throws, never traps, and a note it returns renders to a file that parses back to the
/// same rendering.
@Suite struct MarkdownNoteFuzzTests {
    /// Years 0000 through 9999, in ms since 1970.
    static let fourDigitYears: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999

    static func seeds(_ rng: inout SeededRandom) -> [[UInt8]] {
        let alphabet = Array("ab #-:\"\\\n\n\r\té日🎉\u{301}\u{2028}\u{85}".unicodeScalars)
        var seeds: [[UInt8]] = []
        for _ in 0..<40 {
            let created = Int64.random(in: -62_000_000_000_000...250_000_000_000_000, using: &rng)
            let note = Note(
                id: UUID(uuid: UUID.random(using: &rng)), zone: ["notes", "work-2", ""].randomElement(using: &rng)!,
                title: rng.string(from: alphabet, count: Int.random(in: 0...10, using: &rng)),
                body: rng.string(from: alphabet, count: Int.random(in: 0...40, using: &rng)),
                tags: (0..<Int.random(in: 0...3, using: &rng)).map { _ in rng.string(from: alphabet, count: 3) },
                isFavorite: Bool.random(using: &rng), createdAt: Date(millisecondsSince1970: created),
                modifiedAt: Date(millisecondsSince1970: created + Int64.random(in: 0...1000, using: &rng)),
                deletedAt: Bool.random(using: &rng) ? Date(millisecondsSince1970: created) : nil)
            seeds.append(Array(MarkdownNote.render(note).utf8))
        }
        seeds += [
            "---\r\nid: 2AA3300B-2B71-4343-A20D-672B15AD9A9D\r\ntitle: plain\r\ntags: a, b\r\npinned: TRUE\r\n"
                + "updated: 2025-11-16T05:54:21+02:00\r\ncreated: 2025-11-16\r\n---\r\n# plain\r\n\r\nbody\r\n",
            "\u{FEFF}# Just a heading\n\ntext\n", "no front matter at all", "---\n---\n", "",
        ].map { Array($0.utf8) }
        return seeds
    }

    @Test func damagedFilesParseOrThrow() throws {
        let run = FuzzRun("Markdown front matter", defaultIterations: 20_000)
        var rng = SeededRandom(seed: run.seed)
        let seeds = Self.seeds(&rng)
        let fileDate = Date(millisecondsSince1970: 1_700_000_000_000)
        let mutator = ByteMutator(
            corpus: seeds,
            extraTokens: [
                "---", "\n---\n", "id: ", "title: ", "tags: ", "favorite: ", "notebook: ", "created: ", "modified: ",
                "deleted: ", "2025-11-16T05:54:21.000Z", "-9999-01-01T00:00:00Z", "99999-12-31T23:59:59.999Z",
                "2025-02-30", "2025-11-16T05:54:21.000000000000001Z", "aliases:\n  - ", "tags:\n  - x\n", "&a [*a, *a]",
                "*a", "{", "}", "[", "]", "\"", "'", "|\n  ", "\u{2028}", "\u{85}", "\\U0001F389", "\\x", "!!str ",
                "? ", "- - ",
            ].map { Array($0.utf8) })
        var parsed = 0
        for iteration in 0..<run.iterations {
            let bytes = mutator.mutate(mutator.corpus.randomElement(using: &rng)!, using: &rng)
            guard let note = try? MarkdownNote.parse(String(decoding: bytes, as: UTF8.self), fileDate: fileDate)
            else { continue }
            parsed += 1
            // ISODate reads years past 9999 (and 2025-02-30), where a Date no longer holds every
            // millisecond: such a note renders, but not to a fixed point.
            let dates = [note.createdAt, note.modifiedAt] + (note.deletedAt.map { [$0] } ?? [])
            guard dates.allSatisfy({ Self.fourDigitYears.contains($0.millisecondsSince1970) }) else { continue }
            let rendered = MarkdownNote.render(note)
            let again = try? MarkdownNote.parse(rendered, fileDate: fileDate)
            guard let again, Array(MarkdownNote.render(again).utf8) == Array(rendered.utf8) else {
                let input = String(decoding: bytes, as: UTF8.self)
                Issue.record(
                    "\(run.context(iteration)): \(input.debugDescription) renders as \(rendered.debugDescription)")
                return
            }
        }
        print("fuzz Markdown front matter: \(parsed) of \(run.iterations) damaged files still parsed")
    }
}

extension UUID {
    /// A version 4 UUID from `rng`, so seeds replay.
    static func random(using rng: inout SeededRandom) -> uuid_t {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
            bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }
}
