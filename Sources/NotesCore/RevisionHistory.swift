/// A record's revision graph as a merge reads it (SYNC-FORMAT rule 8): every revision's parents,
/// and the whole revisions (fields and all) of only those a merge can need: the heads and the
/// revisions that can be their common ancestor.
///
/// A 20 MB note edited a hundred times holds a hundred bodies; a merge of two of its heads needs
/// three of them. The graph is read without any body (`id` and `parents` precede `fields` in the
/// store's row), and `bases(of:)` says which revisions to read whole.
public struct RevisionHistory: Sendable {
    /// Each revision's parents, by id.
    public private(set) var parents: [String: [String]]
    /// The revisions read whole, by id.
    public private(set) var loaded: [String: Revision]

    /// A graph of which `loaded` are the revisions read whole (each must be in `parents`).
    public init(parents: [String: [String]], loaded: [Revision]) {
        self.parents = parents
        self.loaded = Dictionary(loaded.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every revision read whole.
    public init(_ revisions: [Revision]) {
        self.init(
            parents: Dictionary(revisions.map { ($0.id, $0.parents) }, uniquingKeysWith: { first, _ in first }),
            loaded: revisions)
    }

    /// The revisions no other revision names as a parent, by id.
    public var headIDs: [String] {
        let named = Set(parents.values.joined())
        return parents.keys.filter { !named.contains($0) }.sorted()
    }

    /// The best common ancestor of `members` (together) and `other`: among the common ancestors
    /// that are no other common ancestor's ancestor, the latest by (HLC, device, id). Nil when
    /// they have none (or none of those was read whole: `bases(of:)` says which to read).
    public func mergeBase(of members: [String], and other: String) -> Revision? {
        bestCommonAncestors(of: members, and: other).compactMap { loaded[$0] }.max(by: Revision.isEarlier)
    }

    /// Every revision `mergeBase` can choose from while `heads` are merged one after another in
    /// any order: the best common ancestors of each pair. (The common ancestors of a set of heads
    /// and one more are the union of each pair's, so the best of them are among the pairs' best.)
    public func bases(of heads: [String]) -> Set<String> {
        var bases = Set<String>()
        for (i, one) in heads.enumerated() {
            for other in heads[(i + 1)...] { bases.formUnion(bestCommonAncestors(of: [one], and: other)) }
        }
        return bases
    }

    /// The common ancestors of `members` and `other` that are no other common ancestor's
    /// ancestor. Common ancestors form an ancestor-closed set, so those are the ones that are no
    /// member's parent.
    func bestCommonAncestors(of members: [String], and other: String) -> Set<String> {
        let common = ancestors(of: members).intersection(ancestors(of: [other]))
        let parentsInCommon = Set(common.flatMap { parents[$0] ?? [] })
        return common.subtracting(parentsInCommon)
    }

    /// `ids` and every revision they descend from, among those in the graph.
    public func ancestors(of ids: [String]) -> Set<String> {
        var seen = Set<String>()
        var stack = ids
        while let id = stack.popLast() {
            guard seen.insert(id).inserted, let next = parents[id] else { continue }
            stack += next
        }
        return seen.filter { parents[$0] != nil }
    }
}
