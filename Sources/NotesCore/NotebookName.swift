import Foundation

/// A notebook's display name as of one rename (SYNC-FORMAT rule 16): the zone id stays, the
/// name is last-writer-wins by `(hlc, device)`, the order every device agrees on (rule 7).
public struct NotebookName: Sendable, Equatable {
    /// The most characters a display name may have.
    public static let maxLength = 200

    public var zone: String
    public var displayName: String
    public var hlc: HLC
    public var device: String

    public init(zone: String, displayName: String, hlc: HLC, device: String) {
        self.zone = zone
        self.displayName = displayName
        self.hlc = hlc
        self.device = device
    }

    /// Whether this name was set after `other` (rule 7's total order).
    public func isNewer(than other: NotebookName?) -> Bool {
        guard let other else { return true }
        return (hlc, device) > (other.hlc, other.device)
    }

    /// A display name as the user typed it, trimmed; nil when it is empty, too long or holds a
    /// line break or a control character.
    public static func cleaned(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= maxLength,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return trimmed
    }
}
