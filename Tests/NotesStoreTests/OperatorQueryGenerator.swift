import Foundation
import NotesCore
import NotesTestSupport

@testable import NotesStore

/// Random queries of the whole language (OR, groups, NOT, dates, `title:`, `has:`, `in:` by
/// name, `sort:`), each as the text a user types and its own brute-force meaning: a predicate
/// over `SearchOracle.Entry` written from the grammar's definition, not from `SearchQuery`.
///
/// Dates are judged on calendar fields in the test's zone (`2025-01` matches a note whose local
/// year and month are 2025 and 1; `>2025-01` one whose (year, month) is greater), not on the
/// instants `SearchDateFilter.interval` computes.
struct OperatorQueryGenerator {
    /// A generated query: what is typed, and what it means.
    struct Generated {
        var text: String
        var matches: (SearchOracle.Entry) -> Bool
        /// Folded positive words outside OR and groups: they rank (ARCHITECTURE §5 tiers).
        var rankingTerms: [[UInt8]] = []
        /// The zone of a top-level `in:`, which alone shows templates.
        var topZone: String?
        var sort: SearchQuery.Sort?
    }

    typealias Predicate = (SearchOracle.Entry) -> Bool

    let notes: [Note]
    /// Display names of notebooks, by zone.
    let names: [String: String]
    let now: Date
    let calendar: Calendar

    init(notes: [Note], names: [String: String], now: Date, timeZone: TimeZone) {
        self.notes = notes
        self.names = names
        self.now = now
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// A word as it must be typed to be one word: quoted when it has a space, a quote, a
    /// parenthesis, a colon or a leading dash, or is `OR`; nil when it cannot be typed (a quote).
    static func typed(_ word: String) -> String? {
        if word.contains("\"") { return nil }
        let special = word.contains { $0.isWhitespace || "():".contains($0) } || word.hasPrefix("-") || word == "OR"
        return special ? "\"\(word)\"" : word
    }

    /// A word that occurs somewhere in the corpus, or a typical one; never one that folds to nothing.
    func word(_ rng: inout SeededRandom) -> String {
        while true {
            let candidate: String
            if Bool.random(using: &rng) {
                candidate = SearchCorpus.word(&rng)
            } else {
                let note = notes.randomElement(using: &rng)!
                let chars = Array(Bool.random(using: &rng) ? note.body : note.title)
                guard !chars.isEmpty else { continue }
                let start = Int.random(in: 0..<chars.count, using: &rng)
                candidate = String(chars[start..<min(chars.count, start + Int.random(in: 1...6, using: &rng))])
            }
            if !SearchOracle.fold(candidate).isEmpty, Self.typed(candidate) != nil,
                !SearchPlan.foldedTerm(candidate).isEmpty
            {
                return candidate
            }
        }
    }

    /// One operator or word, maybe negated: its text, its meaning, and whether it is a plain
    /// positive word (which ranks at the top level).
    func atom(_ rng: inout SeededRandom, inGroup: Bool) -> (String, Predicate, rankingTerm: [UInt8]?) {
        let calendar = calendar
        var text: String
        var predicate: Predicate
        var ranking: [UInt8]?
        switch Int.random(in: 0..<20, using: &rng) {
        case 0..<6:
            let w = word(&rng)
            let folded = SearchOracle.fold(w)
            text = Self.typed(w)!
            predicate = { e in
                SearchOracle.contains(e.title, folded) || SearchOracle.contains(e.body, folded)
                    || SearchOracle.contains(e.tags, folded)
            }
            ranking = folded
        case 6, 7:
            let w = word(&rng)
            let folded = SearchOracle.fold(w)
            text = "title:" + Self.typed(w)!
            predicate = { e in SearchOracle.contains(e.title, folded) }
        case 8:
            let tag = SearchCorpus.tags.randomElement(using: &rng)!
            text = "tag:" + tag
            let folded = SearchOracle.foldedString(tag)
            predicate = { e in e.foldedTags.contains(folded) }
        case 9:
            text = "is:fav"
            predicate = { e in e.note.isFavorite }
        case 10, 11:
            // Templates show only under a top-level `in:templates`: never inside a group.
            let zone = SearchCorpus.zones.filter { $0 != NoteTemplate.zone || !inGroup }.randomElement(using: &rng)!
            switch (names[zone], Int.random(in: 0..<3, using: &rng)) {
            case (let name?, 0): text = "in:\"\(name)\""
            case (let name?, 1): text = "in:\"\(name.uppercased())\""
            default: text = "in:" + (Bool.random(using: &rng) ? zone.uppercased() : zone)
            }
            predicate = { e in e.note.zone == zone }
        case 12:
            text = "has:todo"
            predicate = { e in !TaskItem.open(in: e.note.body).isEmpty }
        case 13:
            text = "has:attachment"
            predicate = { e in !e.note.attachments.isEmpty }
        case 14:
            text = "has:conflict"
            predicate = { e in e.note.syncState == .conflict }
        default:
            (text, predicate) = date(&rng, calendar)
        }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            let positive = predicate
            return ("-" + text, { !positive($0) }, nil)
        }
        return (text, predicate, ranking)
    }

    /// A `created:` or `modified:` condition near a date some note has.
    func date(_ rng: inout SeededRandom, _ calendar: Calendar) -> (String, Predicate) {
        let created = Bool.random(using: &rng)
        let key = created ? "created" : "modified"
        func when(_ e: SearchOracle.Entry) -> Date { created ? e.note.createdAt : e.note.modifiedAt }
        func fields(_ date: Date, _ depth: Int) -> [Int] {
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            return Array([c.year!, c.month!, c.day!].prefix(depth))
        }
        func written(_ f: [Int]) -> String {
            ([String(format: "%04d", f[0])] + f.dropFirst().map { String(format: "%02d", $0) }).joined(separator: "-")
        }
        let sample = notes.randomElement(using: &rng)!
        let reference = created ? sample.createdAt : sample.modifiedAt
        let depth = Int.random(in: 1...3, using: &rng)
        let f = fields(reference, depth)
        switch Int.random(in: 0..<9, using: &rng) {
        case 0:
            return ("\(key):\(written(f))", { fields(when($0), depth) == f })
        case 1:
            return (
                "\(key):>\(written(f))",
                { fields(when($0), depth).lexicographicallyPrecedes(f) == false && fields(when($0), depth) != f }
            )
        case 2:
            return ("\(key):>=\(written(f))", { !fields(when($0), depth).lexicographicallyPrecedes(f) })
        case 3:
            return ("\(key):<\(written(f))", { fields(when($0), depth).lexicographicallyPrecedes(f) })
        case 4:
            return ("\(key):<=\(written(f))", { !f.lexicographicallyPrecedes(fields(when($0), depth)) })
        case 5:
            let other = notes.randomElement(using: &rng)!
            let g = fields(created ? other.createdAt : other.modifiedAt, depth)
            let (low, high) = f.lexicographicallyPrecedes(g) ? (f, g) : (g, f)
            return (
                "\(key):\(written(low))..\(written(high))",
                {
                    let x = fields(when($0), depth)
                    return !x.lexicographicallyPrecedes(low) && !high.lexicographicallyPrecedes(x)
                }
            )
        case 6:
            let today = fields(now, 3)
            return ("\(key):today", { fields(when($0), 3) == today })
        case 7:
            let yesterday = fields(calendar.date(byAdding: .day, value: -1, to: now)!, 3)
            return ("\(key):yesterday", { fields(when($0), 3) == yesterday })
        default:
            let count = Int.random(in: 0...40, using: &rng)
            let (unit, component): (String, Calendar.Component) =
                [("d", .day), ("w", .weekOfYear), ("m", .month), ("h", .hour)].randomElement(using: &rng)!
            let instant = calendar.date(byAdding: component, value: -count, to: now)!
            if Bool.random(using: &rng) {
                return ("\(key):>\(count)\(unit)", { when($0) < instant })
            }
            return ("\(key):\(Bool.random(using: &rng) ? "<" : "")\(count)\(unit)", { when($0) >= instant })
        }
    }

    /// A conjunction of one or two atoms inside a group.
    func conjunction(_ rng: inout SeededRandom) -> (String, Predicate) {
        let parts = (0..<Int.random(in: 1...2, using: &rng)).map { _ in atom(&rng, inGroup: true) }
        let predicates = parts.map(\.1)
        return (parts.map(\.0).joined(separator: " "), { e in predicates.allSatisfy { $0(e) } })
    }

    /// `(A OR B …)`, or a negated group.
    func group(_ rng: inout SeededRandom) -> (String, Predicate) {
        let alternatives = (0..<Int.random(in: 2...3, using: &rng)).map { _ in conjunction(&rng) }
        let predicates = alternatives.map(\.1)
        let text = "(" + alternatives.map(\.0).joined(separator: " OR ") + ")"
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return ("-" + text, { e in !predicates.contains { $0(e) } })
        case 1:
            let (inner, all) = conjunction(&rng)
            return ("-(\(inner))", { !all($0) })
        default: return (text, { e in predicates.contains { $0(e) } })
        }
    }

    func query(_ rng: inout SeededRandom) -> Generated {
        var generated: Generated
        if Int.random(in: 0..<6, using: &rng) == 0 {
            // OR at the top: nothing ranks, no templates.
            let alternatives = (0..<2).map { _ in conjunction(&rng) }
            let predicates = alternatives.map(\.1)
            generated = Generated(
                text: alternatives.map(\.0).joined(separator: " OR "), matches: { e in predicates.contains { $0(e) } })
        } else {
            var texts: [String] = []
            var predicates: [Predicate] = []
            var ranking: [[UInt8]] = []
            var topZone: String?
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                if Int.random(in: 0..<3, using: &rng) == 0 {
                    let (text, predicate) = group(&rng)
                    texts.append(text)
                    predicates.append(predicate)
                } else {
                    let (text, predicate, term) = atom(&rng, inGroup: false)
                    texts.append(text)
                    predicates.append(predicate)
                    if let term { ranking.append(term) }
                    if topZone == nil, text.hasPrefix("in:") {
                        topZone = SearchCorpus.zones.first { predicate(Self.probe(zone: $0)) }
                    }
                }
            }
            generated = Generated(
                text: texts.joined(separator: " "), matches: { e in predicates.allSatisfy { $0(e) } },
                rankingTerms: ranking, topZone: topZone)
        }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            let sort = SearchQuery.Sort.allCases.randomElement(using: &rng)!
            generated.text += " sort:" + sort.rawValue
            generated.sort = sort
        }
        return generated
    }

    /// An entry in `zone` and nothing else, to ask a predicate which zone it names.
    static func probe(zone: String) -> SearchOracle.Entry {
        SearchOracle([Note(zone: zone, title: "", body: "")]).entries[0]
    }

    /// The expected hits of `generated` among `entries`, each with its tier.
    static func expected(_ generated: Generated, in entries: [SearchOracle.Entry]) -> [UUID: Int] {
        var result: [UUID: Int] = [:]
        let distinct = Set(generated.rankingTerms)
        for e in entries where e.note.deletedAt == nil {
            if e.note.zone == NoteTemplate.zone, generated.topZone != NoteTemplate.zone { continue }
            guard generated.matches(e) else { continue }
            let inTitle = distinct.filter { SearchOracle.contains(e.title, $0) }.count
            result[e.note.id] = !distinct.isEmpty && inTitle == distinct.count ? 0 : (inTitle > 0 ? 1 : 2)
        }
        return result
    }
}
