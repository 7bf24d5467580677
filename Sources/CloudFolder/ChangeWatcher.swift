/// Something that watches a cloud folder and calls back when it may have changed (ARCHITECTURE §4).
public protocol ChangeWatcher: Sendable {
    /// Stops watching; no callback runs after it returns.
    func stop()
    /// Something happened (a local edit sent, remote changes fetched): a watcher that polls
    /// looks more often for a while (`AdaptivePoll`).
    func noteActivity()
}

extension ChangeWatcher {
    public func noteActivity() {}
}
