import Foundation
import NotesCore

@testable import NotesStore

/// An independent, brute-force reading of ARCHITECTURE §5, to check the store's search against.
///
/// A note matches when it is not in the trash, every positive term's fold is a substring of the
/// folded title, body or tags (joined by LF), no excluded term's fold is, every `tag:` equals
/// (folded) one of its tags, no `-tag:` does, and `is:fav` / `in:` hold. Substrings are compared
/// on UTF-8 bytes, which is scalar-exact (String's own `contains` compares Characters and would
/// not find "e" in "e\u{301}"). Terms that fold to nothing are ignored, as typing them is.
struct SearchOracle {
    struct Entry {
        let note: Note
        let title: [UInt8]
        let body: [UInt8]
        let tags: [UInt8]
        let foldedTags: Set<String>
    }

    let entries: [Entry]

    init(_ notes: [Note]) {
        entries = notes.map { note in
            Entry(
                note: note, title: Self.fold(note.title), body: Self.fold(note.body),
                tags: Self.fold(note.tags.joined(separator: "\n")),
                foldedTags: Set(note.tags.map(Self.foldedString)))
        }
    }

    static func fold(_ text: String) -> [UInt8] { Array(foldedString(text).utf8) }

    /// The fold of ARCHITECTURE §5 written out again from its definition, scalar by scalar,
    /// without `TextFolding`'s fast paths and caches: ligatures expanded, lowercase (`ß` → `ss`,
    /// `ς` → `σ`, `ſ` → `s`), canonical decomposition, then the nonspacing marks that have the
    /// Diacritic property and variation selectors dropped (vowel signs of Indic scripts and
    /// Thai stay).
    static func foldedString(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let isLigature = (0xFB00...0xFB06).contains(scalar.value) || (0xFB13...0xFB17).contains(scalar.value)
            let expanded = isLigature ? String(scalar).decomposedStringWithCompatibilityMapping : String(scalar)
            for letter in expanded.unicodeScalars {
                for lower in letter.properties.lowercaseMapping.unicodeScalars {
                    switch lower {
                    case "ß": out.append(contentsOf: "ss".unicodeScalars)
                    case "ς": out.append("σ")
                    case "ſ": out.append("s")
                    default:
                        for part in String(lower).decomposedStringWithCanonicalMapping.unicodeScalars {
                            let properties = part.properties
                            let diacritic = properties.generalCategory == .nonspacingMark && properties.isDiacritic
                            if !diacritic && !properties.isVariationSelector { out.append(part) }
                        }
                    }
                }
            }
        }
        return String(out)
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// The expected hits, each with its tier (0: every term in the title, 1: some, 2: none).
    func expected(_ query: SearchQuery) -> [UUID: Int] {
        let terms = query.terms.map(Self.fold).filter { !$0.isEmpty }
        let excluded = query.excludedTerms.map(Self.fold).filter { !$0.isEmpty }
        let tags = query.tags.map(Self.foldedString)
        let excludedTags = query.excludedTags.map(Self.foldedString)
        var result: [UUID: Int] = [:]
        for e in entries where e.note.deletedAt == nil {
            func anywhere(_ t: [UInt8]) -> Bool {
                Self.contains(e.title, t) || Self.contains(e.body, t) || Self.contains(e.tags, t)
            }
            guard terms.allSatisfy(anywhere), !excluded.contains(where: anywhere) else { continue }
            guard tags.allSatisfy(e.foldedTags.contains), !excludedTags.contains(where: e.foldedTags.contains) else {
                continue
            }
            if query.favoritesOnly && !e.note.isFavorite { continue }
            if let notebook = query.notebook, e.note.zone != notebook { continue }
            // Templates are found only by a search in their notebook.
            if e.note.zone == NoteTemplate.zone, query.notebook != NoteTemplate.zone { continue }
            if query.excludesFavorites && e.note.isFavorite { continue }
            if query.excludedNotebooks.contains(e.note.zone) { continue }
            if let wanted = query.openTasks, TaskItem.open(in: e.note.body).isEmpty == wanted { continue }
            let inTitle = Set(terms.map { $0 }).filter { Self.contains(e.title, $0) }.count
            let distinct = Set(terms.map { $0 }).count
            result[e.note.id] = distinct > 0 && inTitle == distinct ? 0 : (inTitle > 0 ? 1 : 2)
        }
        return result
    }
}
