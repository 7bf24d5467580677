extension FolderWatcher {
    /// A watcher with nothing to watch, only the poll: for a bucket (`S3FileIO`), where no
    /// event says an object changed (ARCHITECTURE §4). `onChange` runs every `pollInterval`.
    public static func pollingOnly(pollInterval: Double, onChange: @escaping @Sendable () -> Void) throws
        -> FolderWatcher
    {
        // The empty path is no folder: no inotify watch is added, the poll timeout alone fires.
        try FolderWatcher(root: "", pollInterval: pollInterval, maxDepth: 0, onChange: onChange)
    }
}
