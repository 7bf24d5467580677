import Foundation
import NotesCore
import Synchronization

/// What a bucket's folder has seen during one sync pass (SYNC-FORMAT "On S3"): that
/// `container.json` is there, which zone folders are, and the last listing of a device's log.
///
/// A directory's folder checks for `container.json` before every call, because a mount can go
/// away between two of them and an empty mount point must not read as "every zone deleted"
/// (rule 12); a `stat` costs nothing. A bucket has no mount to lose, and there each check is a
/// request: the container's HEAD was six of an idle pass's twenty, and a zone's folder was
/// listed three times. So a bucket's folder, scoped to one pass (`CloudFolder.scopedToOnePass`),
/// checks each once and remembers it here until the pass ends. Creating a zone still checks
/// the container first, so a prefix emptied during a pass is not filled again.
///
/// The rewind check (`logHead`) and the fetch list a device's log after the same name, one after
/// the other: the fetch takes the listing the check kept, once. Anything this folder writes or
/// deletes drops the kept listings, so none is read after a change of ours.
public final class PassSightings: Sendable {
    private struct Seen {
        var container = false
        var zones = Set<ZoneID>()
        var listings: [String: (startAfter: String, names: [String])] = [:]
    }

    private let seen = Mutex(Seen())

    public init() {}

    var hasSeenContainer: Bool { seen.withLock { $0.container } }
    func recordContainer() { seen.withLock { $0.container = true } }

    func hasSeen(_ zone: ZoneID) -> Bool { seen.withLock { $0.zones.contains(zone) } }
    func record(_ zone: ZoneID) { _ = seen.withLock { $0.zones.insert(zone) } }

    func keep(_ names: [String], under folder: String, startAfter: String) {
        seen.withLock { $0.listings[folder] = (startAfter, names) }
    }

    /// The listing kept of `folder` after `startAfter`, once; nil when there is none.
    func take(under folder: String, startAfter: String) -> [String]? {
        seen.withLock { seen in
            guard let kept = seen.listings.removeValue(forKey: folder), kept.startAfter == startAfter else {
                return nil
            }
            return kept.names
        }
    }

    func forgetListings() { seen.withLock { $0.listings = [:] } }
}
