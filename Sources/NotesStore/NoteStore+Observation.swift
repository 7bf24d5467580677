import GRDB
import NotesCore

extension NoteStore {
    /// Observes one page of a list: the value is fetched again whenever a write touches the
    /// notes it depends on, and delivered where `onChange` is scheduled (GRDB ValueObservation).
    public func observeList(
        _ request: ListRequest, onError: @escaping @Sendable (Error) -> Void = { _ in },
        onChange: @escaping @Sendable ([NoteSummary]) -> Void
    ) -> AnyDatabaseCancellable {
        ValueObservation
            .tracking { db in try Self.fetchList(db, request) }
            .removeDuplicates()
            .start(in: pool, scheduling: .async(onQueue: .global()), onError: onError, onChange: onChange)
    }

    /// Calls `onChange` after every committed transaction that changed notes, in this process
    /// or another one that shares the database (the runtime then refetches what it shows).
    public func observeNoteChanges(
        onError: @escaping @Sendable (Error) -> Void = { _ in }, onChange: @escaping @Sendable () -> Void
    ) -> AnyDatabaseCancellable {
        ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT total_changes()") ?? 0 }
            .start(in: pool, scheduling: .async(onQueue: .global()), onError: onError) { _ in onChange() }
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
            .start(in: pool, scheduling: .async(onQueue: .global()), onError: onError, onChange: onChange)
    }
}
