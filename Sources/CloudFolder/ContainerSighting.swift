import Synchronization

/// That `container.json` has been seen during one sync pass on a bucket (SYNC-FORMAT "On S3").
///
/// A directory's folder checks for `container.json` before every call, because a mount can go
/// away between two of them and an empty mount point must not read as "every zone deleted"
/// (rule 12); a `stat` costs nothing. A bucket has no mount to lose, and there each check is a
/// HEAD request: six of an idle pass's twenty. So a bucket's folder, scoped to one pass
/// (`CloudFolder.scopedToOnePass`), checks once and remembers it here until the pass ends.
/// Creating a zone still checks first, so a prefix emptied during a pass is not filled again.
public final class ContainerSighting: Sendable {
    private let seen = Mutex(false)

    public init() {}

    var hasSeen: Bool { seen.withLock { $0 } }

    func record() { seen.withLock { $0 = true } }
}
