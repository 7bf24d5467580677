extension FolderWatcher {
    /// A watcher with nothing to watch, only the poll: for a bucket (`S3FileIO`), where no
    /// event says an object changed (ARCHITECTURE §4). `onChange` runs on `AdaptivePoll`'s
    /// schedule around `pollInterval`: faster for a minute after `noteActivity`, slower when idle.
    public static func pollingOnly(pollInterval: Double, onChange: @escaping @Sendable () -> Void) throws
        -> FolderWatcher
    {
        // The empty path is no folder: no inotify watch is added, the poll timeout alone fires.
        try FolderWatcher(
            root: "", pollInterval: pollInterval * 4, maxDepth: 0, adaptive: AdaptivePoll(base: pollInterval),
            onChange: onChange)
    }
}
