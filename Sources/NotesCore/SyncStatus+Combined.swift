import Foundation

extension SyncStatus {
    /// What the status bar says for the cloud folder's engine (`primary`) and the engines of
    /// the shared notebooks joined here (`shared`, by notebook name), as one status (issue 24).
    ///
    /// Counts of work add up, but conflicts (which every engine counts over the whole store) are
    /// the largest. The phase is the cloud folder's, unless it is idle or local only and a
    /// shared notebook's sync is running, failing or offline: then that one's, the failure named
    /// with its notebook. "Last synced" is the oldest of them, so the bar never claims more.
    public static func combined(_ primary: SyncStatus, shared: [(name: String, status: SyncStatus)]) -> SyncStatus {
        guard !shared.isEmpty else { return primary }
        var combined = primary
        for (_, status) in shared {
            combined.pendingCount += status.pendingCount
            combined.conflictCount = max(combined.conflictCount, status.conflictCount)
            combined.heldCount += status.heldCount
            combined.heldReason = combined.heldReason ?? status.heldReason
            combined.waitingCount += status.waitingCount
            combined.attachmentWaitingCount += status.attachmentWaitingCount
            combined.damagedChunkCount += status.damagedChunkCount
        }
        combined.phase = combinedPhase(primary.phase, shared: shared)
        return combined
    }

    private static func combinedPhase(_ primary: Phase, shared: [(name: String, status: SyncStatus)]) -> Phase {
        switch primary {
        case .offline, .signInFailed, .error, .syncing: return primary
        case .idle, .localOnly: break
        }
        for (name, status) in shared {
            let notebook = "shared notebook “\(name)”"
            switch status.phase {
            case .error(let message): return .error(message: "\(notebook): \(message)")
            case .signInFailed(let reason): return .error(message: "\(notebook): \(reason)")
            case .offline(let reason): return .offline(reason: "\(notebook): \(reason)")
            case .idle, .localOnly, .syncing: continue
            }
        }
        if let running = shared.first(where: { if case .syncing = $0.status.phase { true } else { false } }) {
            return running.status.phase
        }
        var times: [Date?] = shared.map { if case .idle(let last) = $0.status.phase { last } else { nil } }
        if case .idle(let last) = primary { times.append(last) }
        // Never synced anywhere yet counts as never: the bar says so rather than a time.
        return .idle(lastSync: times.contains { $0 == nil } ? nil : times.compactMap { $0 }.min())
    }
}
