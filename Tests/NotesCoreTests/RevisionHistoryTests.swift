import Foundation
import NotesCore
import NotesTestSupport
import Testing

/// A merge reads the heads and their possible bases whole, and only the graph of the rest
/// (`RevisionHistory`): the bases it picks must be those it would pick with every revision read.
@Suite("Revision history of a merge")
struct RevisionHistoryTests {
    /// A random revision graph: each revision's parents drawn from earlier ones (one, two or
    /// three, so criss-cross merges with several best common ancestors occur), stamps random;
    /// the same graph, ids and all, for the same seed.
    static func randomHistory(_ rng: inout SeededRandom, size: Int) -> [Revision] {
        let record = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
        var revisions: [Revision] = []
        for n in 0..<size {
            var parents = Set<String>()
            if !revisions.isEmpty {
                for _ in 0..<(1 + rng.below(3)) where rng.below(4) > 0 || parents.isEmpty {
                    parents.insert(revisions[rng.below(revisions.count)].id)
                }
            }
            let fields = RevisionFields(
                note: Note(title: "t", body: "body \(n)\n", createdAt: Date(millisecondsSince1970: 0)))
            revisions.append(
                Revision(
                    recordID: record, parents: Array(parents), fields: fields,
                    hlc: HLC(millis: Int64(rng.below(8)), counter: 0), device: ["a", "b", "c"][rng.below(3)]))
        }
        return revisions
    }

    @Test("over random graphs, the heads and bases(of:) read whole give every merge base that all revisions give")
    func partialHistoryPicksTheSameBases() {
        let seed = SeededRandom.seed(default: 20_261_124)
        var rng = SeededRandom(seed: seed)
        var merges = 0
        for round in 0..<2_000 {
            let revisions = Self.randomHistory(&rng, size: 2 + rng.below(30))
            let full = RevisionHistory(revisions)
            let heads = full.headIDs
            guard heads.count > 1 else { continue }
            let wanted = Set(heads).union(full.bases(of: heads))
            let partial = RevisionHistory(
                parents: full.parents, loaded: revisions.filter { wanted.contains($0.id) })
            // The fold of a merge: heads in any order, each merged into those before it.
            let order = heads.shuffled(using: &rng)
            for k in 1..<order.count {
                let members = Array(order[..<k])
                let expected = full.mergeBase(of: members, and: order[k])
                let got = partial.mergeBase(of: members, and: order[k])
                #expect(
                    got?.id == expected?.id,
                    "seed \(seed) (CLOUDNOTES_SEED), round \(round): base of \(members) and \(order[k])")
                merges += 1
            }
        }
        print("RevisionHistory: \(merges) merge steps over random graphs, seed \(seed)")
        #expect(merges > 1_000)
    }

    @Test("a criss-cross merge has two best common ancestors; both are read, the latest is the base")
    func crissCross() {
        let record = UUID()
        func revision(_ body: String, _ parents: [Revision], _ millis: Int64) -> Revision {
            Revision(
                recordID: record, parents: parents.map(\.id),
                fields: RevisionFields(note: Note(title: "t", body: body)),
                hlc: HLC(millis: millis, counter: 0), device: "a")
        }
        let root = revision("root", [], 1)
        let x = revision("x", [root], 2)
        let y = revision("y", [root], 3)
        let xy = revision("xy", [x, y], 4)
        let yx = revision("yx", [x, y], 5)
        let old = revision("old", [], 0)
        let history = RevisionHistory([old, root, x, y, xy, yx])
        #expect(history.headIDs.sorted() == [old.id, xy.id, yx.id].sorted())
        #expect(history.bases(of: [xy.id, yx.id]) == [x.id, y.id])
        #expect(history.mergeBase(of: [xy.id], and: yx.id)?.id == y.id)
        #expect(history.bases(of: [xy.id, old.id]).isEmpty)
    }
}
