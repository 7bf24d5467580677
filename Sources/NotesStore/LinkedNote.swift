import Foundation

/// A note a link leads from (`NoteStore.backlinks`): enough to list and open it.
public struct LinkedNote: Sendable, Equatable {
    public var id: UUID
    public var title: String
    public var zone: String

    public init(id: UUID, title: String, zone: String) {
        self.id = id
        self.title = title
        self.zone = zone
    }

    public var idString: String { id.lowercasedString }
}
