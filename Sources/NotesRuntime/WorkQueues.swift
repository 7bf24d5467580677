import Foundation

/// Where the effect runner's store work runs, off the loop's thread: one lane per kind of
/// work, each in the order it was asked for (`EffectRunner`).
///
/// The app runs on `DispatchWorkQueues`; a test that steps the runtime gives it
/// `ManualWorkQueues`, whose work runs only when the runtime settles (`NotesRuntime.runUntilIdle`).
public protocol WorkQueues: Sendable {
    /// Runs `work` later, after everything enqueued on `lane` before it.
    func async(_ lane: WorkLane, _ work: @escaping @Sendable () -> Void)
    /// Returns once everything enqueued on `lane` so far has run.
    func wait(for lane: WorkLane)
    /// Runs the oldest waiting piece of work on the caller's thread; false when none waits for
    /// the caller (dispatch queues run their own work).
    func runNext() -> Bool
}

/// The effect runner's lanes: reads, searches (only the latest request runs) and writes (kept
/// in the order `update` asked for them); and the notes folder's passes
/// (`RuntimeOptions.notesFolder`), which never hold up the others.
public enum WorkLane: Sendable, CaseIterable {
    case reads, searches, writes, folder
}

/// The app's queues: a serial dispatch queue per lane.
public final class DispatchWorkQueues: WorkQueues {
    private let reads = DispatchQueue(label: "cloudnotes.runtime.reads", qos: .userInteractive)
    private let searches = DispatchQueue(label: "cloudnotes.runtime.search", qos: .userInteractive)
    private let writes = DispatchQueue(label: "cloudnotes.runtime.writes", qos: .userInitiated)
    private let folder = DispatchQueue(label: "cloudnotes.runtime.folder", qos: .utility)

    public init() {}

    public func async(_ lane: WorkLane, _ work: @escaping @Sendable () -> Void) {
        queue(lane).async(execute: work)
    }

    public func wait(for lane: WorkLane) {
        queue(lane).sync {}
    }

    public func runNext() -> Bool { false }

    private func queue(_ lane: WorkLane) -> DispatchQueue {
        switch lane {
        case .reads: reads
        case .searches: searches
        case .writes: writes
        case .folder: folder
        }
    }
}
