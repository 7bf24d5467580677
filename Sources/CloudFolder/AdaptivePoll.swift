/// How often a watcher with no change events (a bucket: `FolderWatcher.pollingOnly`) looks
/// (ARCHITECTURE §4): every `base` seconds (`pollIntervalSeconds`); for a minute after activity
/// (a local edit sent, remote changes fetched) every `base / 6`, at least 2 s, so a conversation
/// between devices goes back and forth quickly; after ten minutes without any, every `base * 4`,
/// so an idle device costs a quarter of the requests.
public struct AdaptivePoll: Sendable, Equatable {
    public var base: Double
    public static let busyWindow: Double = 60
    public static let idleAfter: Double = 600

    public init(base: Double) { self.base = max(0.1, base) }

    /// The interval, `sinceActivity` seconds after the last activity (nil: none yet, as idle
    /// as a device that just started: the base).
    public func interval(sinceActivity: Double?) -> Double {
        guard let since = sinceActivity else { return base }
        if since < Self.busyWindow { return min(base, max(2, base / 6)) }
        if since >= Self.idleAfter { return base * 4 }
        return base
    }
}
