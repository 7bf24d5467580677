import Foundation

/// Both sides of a note's conflict for the resolver (`Action.conflictLoaded`); text is raw.
public struct ConflictVersions: Equatable, Sendable {
    /// One side: a label for the header ("this device", "laptop · 2 h ago") and its text.
    public struct Side: Equatable, Sendable {
        public var label: String
        public var title: String
        public var body: String

        public init(label: String, title: String, body: String) {
            self.label = label
            self.title = title
            self.body = body
        }

        /// The side as editor text: the title line, then the body.
        public var text: String { body.isEmpty ? title : title + "\n" + body }
    }

    public var noteID: UUID
    public var mine: Side
    public var theirs: Side
    /// The common ancestor, when history still has it.
    public var base: Side?

    public init(noteID: UUID, mine: Side, theirs: Side, base: Side? = nil) {
        self.noteID = noteID
        self.mine = mine
        self.theirs = theirs
        self.base = base
    }
}
