/// Recognition of files that a replicator renamed (SYNC-FORMAT rule 9).
///
/// Dropbox and Nextcloud write `name (conflicted copy …).json` (Dropbox also
/// `name (Bob's conflicted copy 2024-01-01).json`), Syncthing `name.sync-conflict-<date>-<time>-<id>.json`,
/// older Nextcloud clients `name_conflict-<date>-<time>.json`,
/// iCloud Drive and macOS `name 2.json`. A salvage scan maps such a name back to the name it
/// copies; the file is ingested only if its envelope then checks out against that name's path.
public struct SalvageName: Sendable, Equatable {
    public enum Replicator: String, Sendable, Equatable {
        case conflictedCopy, syncthingConflict, numberedCopy, nextcloudConflict
    }

    /// The name the copy was made from, e.g. `000000000007.json`.
    public var original: String
    public var replicator: Replicator

    public init(original: String, replicator: Replicator) {
        self.original = original
        self.replicator = replicator
    }

    /// The original of a renamed copy, or nil when `name` is not one.
    public init?(_ name: String) {
        guard name.hasSuffix(".json"), !name.hasPrefix(".") else { return nil }
        let stem = String(name.dropLast(5))
        if stem.hasSuffix(")"), let open = stem.range(of: " (", options: .backwards),
            stem[open.upperBound...].lowercased().contains("conflicted copy")
        {
            self.init(original: stem[..<open.lowerBound] + ".json", replicator: .conflictedCopy)
        } else if let marker = stem.range(of: ".sync-conflict-") {
            self.init(original: stem[..<marker.lowerBound] + ".json", replicator: .syncthingConflict)
        } else if let marker = stem.range(of: "_conflict-") {
            self.init(original: stem[..<marker.lowerBound] + ".json", replicator: .nextcloudConflict)
        } else if let space = stem.lastIndex(of: " "), stem.index(after: space) < stem.endIndex,
            stem[stem.index(after: space)...].allSatisfy(\.isASCII),
            stem[stem.index(after: space)...].allSatisfy(\.isNumber)
        {
            self.init(original: stem[..<space] + ".json", replicator: .numberedCopy)
        } else {
            return nil
        }
        guard !original.isEmpty && original != ".json" else { return nil }
    }
}
