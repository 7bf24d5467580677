import CloudFolder
import Foundation

extension SyncEngine {
    /// Watches a data directory, where SQLite writes its WAL, so writes by this process or
    /// another one (`cloudnotes add`, the app's autosave) reach the engine as pending changes,
    /// sent after its debounce (ARCHITECTURE §1, step 4 of one edit).
    public nonisolated func watchLocalWrites(in directory: String) throws -> FolderWatcher {
        try FolderWatcher(root: directory, pollInterval: 3600, maxDepth: 0, events: .writes) {
            Task { await self.pendingChangesAdded() }
        }
    }
}
