import NotesCore
import Synchronization

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
public final class PassSightings: Sendable {
    private let seen = Mutex((container: false, zones: Set<ZoneID>()))

    public init() {}

    var hasSeenContainer: Bool { seen.withLock { $0.container } }
    func recordContainer() { seen.withLock { $0.container = true } }

    func hasSeen(_ zone: ZoneID) -> Bool { seen.withLock { $0.zones.contains(zone) } }
    func record(_ zone: ZoneID) { _ = seen.withLock { $0.zones.insert(zone) } }
}
