import Foundation
import NotesCore
import Testing

/// The status bar's one status for the cloud folder and the shared notebooks beside it
/// (issue 24): a shared notebook's failure is never hidden behind the folder's "synced".
@Suite struct SyncStatusCombinedTests {
    let earlier = Date(timeIntervalSince1970: 1_000)
    let later = Date(timeIntervalSince1970: 2_000)

    @Test func countsAddUpAndLastSyncedIsTheOldest() {
        var primary = SyncStatus(phase: .idle(lastSync: later), pendingCount: 2, conflictCount: 1, waitingCount: 1)
        primary.damagedChunkCount = 1
        let trip = SyncStatus(phase: .idle(lastSync: earlier), pendingCount: 3, conflictCount: 1, waitingCount: 2)
        let combined = SyncStatus.combined(primary, shared: [("Trip", trip)])
        #expect(combined.pendingCount == 5 && combined.waitingCount == 3 && combined.damagedChunkCount == 1)
        // Every engine counts conflicts over the whole store: the same note is not two conflicts.
        #expect(combined.conflictCount == 1)
        #expect(combined.phase == .idle(lastSync: earlier))
        // A shared notebook never synced yet: the bar does not say "synced".
        let fresh = SyncStatus(phase: .idle(lastSync: nil))
        #expect(SyncStatus.combined(primary, shared: [("Trip", trip), ("New", fresh)]).phase == .idle(lastSync: nil))
        #expect(SyncStatus.combined(primary, shared: []) == primary)
    }

    @Test func aSharedNotebooksFailureShowsNamedWhenTheFolderIsFine() {
        let primary = SyncStatus(phase: .idle(lastSync: later))
        let failing = SyncStatus(phase: .error(message: "refused: a file signed by a read-only member"))
        let offline = SyncStatus(phase: .offline(reason: "the place cannot be reached"))
        let combined = SyncStatus.combined(
            primary, shared: [("Plans", .init(phase: .idle(lastSync: later))), ("Trip", failing)])
        #expect(
            combined.phase == .error(message: "shared notebook “Trip”: refused: a file signed by a read-only member"))
        #expect(
            SyncStatus.combined(primary, shared: [("Trip", offline)]).phase
                == .offline(reason: "shared notebook “Trip”: the place cannot be reached"))
        // The folder's own failure comes first.
        let locked = SyncStatus(phase: .error(message: "sync is locked"))
        #expect(SyncStatus.combined(locked, shared: [("Trip", failing)]).phase == locked.phase)
        // With no cloud folder at all, the shared notebooks' state is the bar's.
        let syncing = SyncStatus(phase: .syncing(done: 1, total: 4))
        #expect(SyncStatus.combined(.localOnly, shared: [("Trip", syncing)]).phase == syncing.phase)
        #expect(
            SyncStatus.combined(.localOnly, shared: [("Trip", .init(phase: .idle(lastSync: later)))]).phase
                == .idle(lastSync: later))
    }
}
