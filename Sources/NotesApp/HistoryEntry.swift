import Foundation

/// One revision in a note's history view (`Action.historyLoaded`), newest first.
public struct HistoryEntry: Equatable, Sendable, Identifiable {
    /// The revision id (`Effect.restoreRevision` takes it).
    public var id: String
    /// When the revision was made (its modifiedAt, or the HLC's wall time).
    public var date: Date
    /// The device that made it, as sync names it.
    public var device: String
    public var title: String
    /// The revision's body (raw); nil for a deletion (tombstone).
    public var body: String?

    public init(id: String, date: Date, device: String, title: String, body: String?) {
        self.id = id
        self.date = date
        self.device = device
        self.title = title
        self.body = body
    }
}
