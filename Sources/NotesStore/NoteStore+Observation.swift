import Foundation
import GRDB
import NotesCore

extension NoteStore {
    /// Observes one page of a list: the value is fetched again whenever a write touches the
    /// notes it depends on, and delivered in order on a serial queue of its own (GRDB
    /// ValueObservation; a concurrent queue could deliver an older value after a newer one).
    public func observeList(
        _ request: ListRequest, onError: @escaping @Sendable (Error) -> Void = { _ in },
        onChange: @escaping @Sendable ([NoteSummary]) -> Void
    ) -> AnyDatabaseCancellable {
        ValueObservation
            .tracking { db in try Self.fetchList(db, request) }
            .removeDuplicates()
            .start(in: pool, scheduling: Self.observationQueue(), onError: onError, onChange: onChange)
    }

    /// Calls `onChange` after every committed transaction of this process that changed notes
    /// (the runtime then refetches what it shows), on the writer's queue before the write
    /// returns; never at start, so a reload of its own cannot race what the caller loads or
    /// checks first. SQLite does not notify of another process's commits.
    public func observeNoteChanges(
        onError: @escaping @Sendable (Error) -> Void = { _ in }, onChange: @escaping @Sendable () -> Void
    ) -> AnyDatabaseCancellable {
        DatabaseRegionObservation(tracking: Table("note"))
            .start(in: pool, onError: onError) { _ in onChange() }
    }

    /// Observes the counts of each section, for headers and the status bar.
    public func observeCounts(
        onError: @escaping @Sendable (Error) -> Void = { _ in },
        onChange: @escaping @Sendable ([ListSection: Int]) -> Void
    ) -> AnyDatabaseCancellable {
        ValueObservation
            .tracking { db in
                var counts: [ListSection: Int] = [:]
                for section in ListSection.allCases { counts[section] = try Self.fetchCount(db, section) }
                return counts
            }
            .removeDuplicates()
            .start(in: pool, scheduling: Self.observationQueue(), onError: onError, onChange: onChange)
    }

    /// A serial queue per observation, so values arrive in the order they were fetched.
    static func observationQueue() -> AsyncValueObservationScheduler {
        .async(onQueue: DispatchQueue(label: "cloudnotes.store.observation"))
    }
}
