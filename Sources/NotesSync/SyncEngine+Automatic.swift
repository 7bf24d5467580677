import CloudFolder
import Foundation
import NotesCore

/// Automatic sync (ARCHITECTURE §4): debounced sends after edits, fetches when the folder changes
/// (watcher, with its fallback poll), retries with backoff. Only when `automaticallySync` is on.
extension SyncEngine {
    /// Starts the watcher and runs a first sync.
    public func start() async {
        guard configuration.automaticallySync else { return }
        if watcher == nil, let makeWatcher = configuration.makeWatcher {
            do {
                watcher = try makeWatcher { [weak self] in
                    Task { await self?.folderChanged() }
                }
            } catch {
                warn(
                    "cannot watch the cloud folder (\(CloudError.userMessage(error))); changes are picked up by sync now only"
                )
            }
        }
        await syncNow()
    }

    /// Stops the watcher and every scheduled task.
    public func stop() {
        watcher?.stop()
        watcher = nil
        debounceTask?.cancel()
        retryTask?.cancel()
        eventSink.finish()
        statusSink.finish()
    }

    /// Tells the engine the store has new pending changes: they are sent `debounceSeconds`
    /// after the last such call (each call restarts the wait).
    public func pendingChangesAdded() {
        setPhase(status.phase)
        guard configuration.automaticallySync else { return }
        // A polling watcher (a bucket) looks more often while devices are busy.
        watcher?.noteActivity()
        debounceTask?.cancel()
        let delay = configuration.debounceSeconds
        let clock = configuration.clock
        debounceTask = Task(priority: .userInitiated) { [weak self] in
            // Cancelled: the engine is stopping or a newer send replaced this one.
            try? await clock.sleep(for: .seconds(delay))
            guard !Task.isCancelled else { return }
            await self?.debouncedSend()
        }
    }

    func debouncedSend() async {
        do {
            _ = try await sendChanges()
            setPhase(
                Self.settled(lastSync: state.lastSync.map(Date.init(millisecondsSince1970:)), held: state.held.values))
            // Notes that did not fit in a full cloud folder are tried again on the backoff.
            if !roomWaits.isEmpty { scheduleRetry() }
        } catch {
            record(error)
        }
    }

    /// The folder changed (or the poll came round): one fetch, coalescing bursts of events.
    public func folderChanged() async {
        guard !fetchScheduled else { return }
        fetchScheduled = true
        await Task.yield()
        fetchScheduled = false
        await syncNow()
    }

    /// Retries after the policy's backoff, never sooner than `retryAfter` (the server's
    /// `Retry-After`, ARCHITECTURE §4).
    func scheduleRetry(retryAfter: Double? = nil) {
        retryTask?.cancel()
        retryAttempt += 1
        let delay = configuration.retry.delay(
            attempt: retryAttempt, retryAfter: retryAfter, unit: Double.random(in: 0..<1, using: &random))
        let clock = configuration.clock
        retryTask = Task(priority: .userInitiated) { [weak self] in
            // Cancelled: the engine is stopping or a newer send replaced this one.
            try? await clock.sleep(for: .seconds(delay))
            guard !Task.isCancelled else { return }
            await self?.syncNow()
        }
    }
}
