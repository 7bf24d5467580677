import Foundation

/// A note as a watched view sees it (`cloudnotes view watch`): its id, its title, and a
/// signature of what a person would notice changing (text, title, tags, notebook, favorite).
public struct ViewMatch: Sendable, Equatable {
    public var id: UUID
    public var title: String
    public var signature: String

    public init(id: UUID, title: String, signature: String) {
        self.id = id
        self.title = title
        self.signature = signature
    }
}

/// What happened to a view between two looks, as `CKQuerySubscription` reports it: a note
/// started matching, stopped matching, or changed while matching.
public struct ViewChange: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case added, removed, changed
    }

    public var kind: Kind
    public var note: ViewMatch

    public init(_ kind: Kind, _ note: ViewMatch) {
        self.kind = kind
        self.note = note
    }

    /// The changes from `old` to `new`: removals first, then additions, then changes, each by
    /// title then id, so two runs over the same stores print the same lines.
    public static func between(_ old: [UUID: ViewMatch], _ new: [UUID: ViewMatch]) -> [ViewChange] {
        func ordered(_ matches: some Sequence<ViewMatch>) -> [ViewMatch] {
            matches.sorted { ($0.title, $0.id.uuidString) < ($1.title, $1.id.uuidString) }
        }
        let removed = ordered(old.values.filter { new[$0.id] == nil }).map { ViewChange(.removed, $0) }
        let added = ordered(new.values.filter { old[$0.id] == nil }).map { ViewChange(.added, $0) }
        let changed = ordered(
            new.values.filter { match in old[match.id].map { $0.signature != match.signature } ?? false }
        ).map { ViewChange(.changed, $0) }
        return removed + added + changed
    }
}
