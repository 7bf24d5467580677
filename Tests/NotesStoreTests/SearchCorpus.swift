import Foundation
import NotesCore
import NotesTestSupport

/// A deterministic corpus in the mix the app meets: ASCII in mixed case, accented Latin typed
/// composed and decomposed, CJK, Hangul, Indic and Thai, emoji with modifiers and flags, punctuation.
enum SearchCorpus {
    static let words = """
        meeting roadmap budget release sprint design review kernel backup invoice recipe garden \
        travel flight hotel doctor birthday groceries password router server database deploy \
        incident planning research draft chapter exam project latency cache index search terminal \
        the of and to in is for on it at by a an or go Meeting ROADMAP Budget iOS macOS SQLite e-mail \
        re-deploy 10:30 v2.1 x y z ab abc
        """.split(separator: " ").map(String.init)
    static let accented = [
        "café", "naïve", "Zürich", "Straße", "Ångström", "Dvořák", "crème", "brûlée", "CAFÉ", "cafe\u{301}",
        "São", "Kraków", "déjà", "Mädchen", "ΣΟΦΟΣ", "σοφός", "İstanbul", "ﬁnance", "ﬂow", "oﬃce",
    ]
    static let cjk = ["日本語", "会議", "東京", "中文", "笔记", "한국어", "메모", "メモ", "日本", "会", "語"]
    /// Devanagari, Bengali and Thai with vowel signs, and the same consonants without them.
    static let indic = ["देखें", "दख", "हिन्दी", "क़िला", "বাংলা", "বল", "ভালো", "เรียน", "เร", "ไทย", "น้ำ"]
    static let emoji = ["🎉", "✅", "👍🏽", "👍", "🇯🇵", "❤️", "❤", "⚠️", "🔥", "👨‍👩‍👧"]
    static let punctuation = [",", ".", "!", "?", "-", ":", "(", ")", "\"", "'", "/", "#", "*", "—"]
    static let tags = ["work", "Work", "home", "ideas", "todo-list", "日本", "café", "Cafe\u{301}", "urgent"]
    static let zones = ["notes", "work", "travel-2025", NoteTemplate.zone]

    static func word(_ rng: inout SeededRandom) -> String {
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<60: return words.randomElement(using: &rng)!
        case 60..<75: return accented.randomElement(using: &rng)!
        case 75..<83: return cjk.randomElement(using: &rng)!
        case 83..<87: return indic.randomElement(using: &rng)!
        case 87..<94: return emoji.randomElement(using: &rng)!
        default: return punctuation.randomElement(using: &rng)!
        }
    }

    static func text(_ rng: inout SeededRandom, words count: Int, newlines: Bool) -> String {
        var out = ""
        for i in 0..<count {
            if i > 0 {
                out +=
                    newlines && Int.random(in: 0..<8, using: &rng) == 0
                    ? "\n" + ["", "", "- [ ] ", "* [x] ", "  - [ ] "].randomElement(using: &rng)!
                    : (Int.random(in: 0..<12, using: &rng) == 0 ? "" : " ")
            }
            out += word(&rng)
        }
        return out
    }

    static func notes(count: Int, seed: UInt64) -> [Note] {
        var rng = SeededRandom(seed: seed)
        // Creation dates from a stream of their own, so the rest of the corpus stays as it was.
        var ages = SeededRandom(seed: seed ^ 0xC4EA_7ED0)
        let base: Int64 = 1_700_000_000_000
        return (0..<count).map { i in
            // Some notes share a modification time: order among them is free, but not across them.
            let modified =
                Int.random(in: 0..<10, using: &rng) == 0
                ? base + 5_000 : base + Int64.random(in: 0...90_000_000_000, using: &rng)
            return Note(
                id: UUID(
                    uuidString: String(
                        format: "%08x-0000-4000-8000-%012x", i, Int.random(in: 0..<0xFFFF_FFFF, using: &rng)))!,
                zone: zones.randomElement(using: &rng)!,
                title: Int.random(in: 0..<25, using: &rng) == 0
                    ? "" : text(&rng, words: Int.random(in: 1...5, using: &rng), newlines: false),
                body: text(&rng, words: Int.random(in: 0...30, using: &rng), newlines: true),
                tags: (0..<Int.random(in: 0...3, using: &rng)).map { _ in tags.randomElement(using: &rng)! },
                isFavorite: Int.random(in: 0..<7, using: &rng) == 0,
                // Up to 400 days before the modification, most within a few days of it.
                createdAt: Date(
                    millisecondsSince1970: modified
                        - (Bool.random(using: &ages)
                            ? Int64.random(in: 0...400 * 86_400_000, using: &ages)
                            : Int64.random(in: 0...3 * 86_400_000, using: &ages))),
                modifiedAt: Date(millisecondsSince1970: modified),
                deletedAt: Int.random(in: 0..<15, using: &rng) == 0 ? Date(millisecondsSince1970: modified + 1) : nil)
        }
    }
}
