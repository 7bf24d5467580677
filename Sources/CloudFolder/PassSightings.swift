import Foundation
import NotesCore

/// What a bucket's folder has seen during one sync pass (SYNC-FORMAT "On S3"): that
/// `container.json` is there, and which zone folders are.
///
/// A directory's folder checks for `container.json` before every call, because a mount can go
/// away between two of them and an empty mount point must not read as "every zone deleted"
/// (rule 12); a `stat` costs nothing. A bucket has no mount to lose, and there each check is a
/// request: the container's HEAD was six of an idle pass's twenty, and a zone's folder was
/// listed three times. So a bucket's folder, scoped to one pass (`CloudFolder.scopedToOnePass`),
/// checks each once and remembers it here until the pass ends. Creating a zone still checks
/// the container first, so a prefix emptied during a pass is not filled again.
public final class PassSightings: @unchecked Sendable {
    private let lock = NSLock()
    private var container = false
    private var zones = Set<ZoneID>()

    public init() {}

    var hasSeenContainer: Bool { lock.withLock { container } }
    func recordContainer() { lock.withLock { container = true } }

    func hasSeen(_ zone: ZoneID) -> Bool { lock.withLock { zones.contains(zone) } }
    func record(_ zone: ZoneID) { _ = lock.withLock { zones.insert(zone) } }
}
