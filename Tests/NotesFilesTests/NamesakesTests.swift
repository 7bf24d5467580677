import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesFiles

/// A note added, gone or retitled names again only its namesakes' files (`FolderMirror
/// .namesakes`): checked against naming the whole notebook (`ExportNames.paths`, the oracle)
/// over random notebooks of look-alike titles (`Plan`, `plan (1`, `Plan (1a2b3c4d)`, a title that
/// is another note's id), from a printed seed.
@Suite struct NamesakesTests {
    static let titles = [
        "Plan", "plan", "Plan (2)", "Plan (", " (x", "Plan  (a", "Planning", "Notes", "notes (1",
        "Plan/2", "Pla", "(", "Notes.", "Äpfel", "äpfel",
    ]

    func title(_ random: inout SeededRandom, ids: [UUID]) -> String {
        switch random.below(10) {
        case 0 where !ids.isEmpty:
            // Another note's suffixed name, or its id: the second and third names.
            let other = ids[random.below(ids.count)].lowercasedString
            return random.below(2) == 0 ? "Plan (\(other.prefix(8)))" : other
        default: return Self.titles[random.below(Self.titles.count)]
        }
    }

    @Test func namingOnlyTheNamesakesGivesTheNamesOfTheWholeNotebook() {
        let seed = SeededRandom.seed(default: 41)
        var random = SeededRandom(seed: seed)
        for round in 0..<300 {
            var notes: [Note] = []
            for index in 0..<(2 + random.below(12)) {
                let title = title(&random, ids: notes.map(\.id))
                let zone = random.below(4) == 0 ? "work" : Note.defaultZone
                notes.append(
                    Note(zone: zone, title: title, body: "", createdAt: Date(timeIntervalSince1970: Double(index))))
            }
            let before = ExportNames.paths(notes)
            var after = notes
            var changed: Set<String> = []
            let stem = { (title: String) in ExportNames.safe(title).lowercased() }
            let position = random.below(after.count)
            switch random.below(3) {
            case 0:
                changed.insert(stem(after[position].title))
                after.remove(at: position)
            case 1:
                let new = title(&random, ids: after.map(\.id))
                changed.formUnion([stem(after[position].title), stem(new)])
                after[position].title = new
            default:
                let new = Note(
                    zone: after[position].zone, title: title(&random, ids: after.map(\.id)), body: "",
                    createdAt: Date(timeIntervalSince1970: Double(random.below(20)) - 0.5))
                changed.insert(stem(new.title))
                after.append(new)
            }
            let whole = ExportNames.paths(after)
            let zones = Set(after.map(\.zone))
            let members = FolderMirror.namesakes(of: changed, in: zones, after, after.map { stem($0.title) })
            let named = ExportNames.paths(members.map { after[$0] })
            var expected = [String?](repeating: nil, count: after.count)
            for (index, path) in zip(members, named) { expected[index] = path }
            let old = Dictionary(zip(notes.map(\.id), before), uniquingKeysWith: { a, _ in a })
            for index in after.indices {
                // Named again: as the whole notebook names it; else its name did not move.
                let got = expected[index] ?? old[after[index].id]
                #expect(
                    got == whole[index],
                    "seed \(seed) (CLOUDNOTES_SEED=\(seed) replays it), round \(round): \(after[index].title) is \(whole[index]), named \(got ?? "nothing")"
                )
                if got != whole[index] { return }
            }
        }
    }
}
