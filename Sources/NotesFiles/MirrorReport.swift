/// What one pass of the mirror did (or, for `status`, would do), as lines a user reads.
public struct MirrorReport: Sendable, Equatable {
    /// Changes read from the folder into the store (`edited Work/Plan.md`, `trashed …`).
    public var fromFolder: [String] = []
    /// Changes written from the store to the folder (`wrote Work/Plan.md`, `removed …`).
    public var toFolder: [String] = []
    /// Files that did not parse, with the reason: left as they are.
    public var unparsed: [(path: String, reason: String)] = []
    /// Notes flagged as a conflict by a file edit that overlapped another change.
    public var conflicts: [String] = []
    /// Files not written this pass because they changed while the pass ran, or their name is
    /// taken; the next pass reads or writes them.
    public var waiting: [String] = []

    public init() {}

    public var isEmpty: Bool {
        fromFolder.isEmpty && toFolder.isEmpty && unparsed.isEmpty && conflicts.isEmpty && waiting.isEmpty
    }

    public static func == (a: MirrorReport, b: MirrorReport) -> Bool {
        a.fromFolder == b.fromFolder && a.toFolder == b.toFolder && a.conflicts == b.conflicts
            && a.waiting == b.waiting && a.unparsed.map(\.path) == b.unparsed.map(\.path)
            && a.unparsed.map(\.reason) == b.unparsed.map(\.reason)
    }
}
