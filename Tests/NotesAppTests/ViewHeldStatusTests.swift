import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// The status bar names why pending notes stay here when the sync engine holds some back
/// (SYNC-FORMAT rule 13: a note over the 1 MB limit).
@Suite struct ViewHeldStatusTests {
    func statusBar(_ status: SyncStatus, width: Int, message: StatusMessage? = nil) -> String {
        var state = AppState.fixture(size: Size(width: width, height: 15))
        state.syncStatus = status
        state.message = message
        return text(row(14, of: view(state, Size(width: width, height: 15)))).lines[0]
    }

    let held = SyncStatus(
        phase: .idle(lastSync: testNow), pendingCount: 2, heldCount: 1, heldReason: "over the 1 MB limit")

    @Test func theReasonFollowsTheCounts() {
        #expect(
            statusBar(held, width: 100)
                == " ✓ Synced just now  ↑ 2 pending · 1 held: over the 1 MB limit       / search  n new  ? help  q quit "
        )
    }

    /// A file in the cloud folder that does not check out (a seal that does not verify, a torn
    /// file) is counted beside the pending changes, as `cloudnotes status` names it.
    @Test func filesTheFetchWaitsAtAreCounted() {
        let status = SyncStatus(phase: .idle(lastSync: testNow), pendingCount: 1, waitingCount: 2)
        #expect(statusBar(status, width: 100).hasPrefix(" ✓ Synced just now  ↑ 1 pending  2 files waiting "))
        #expect(statusBar(status, width: 60).contains("↑ 1 pending  2 files waiting"))
    }

    @Test func nothingIsSaidWhileNothingIsHeld() {
        let bar = statusBar(SyncStatus(phase: .idle(lastSync: testNow), pendingCount: 2), width: 100)
        #expect(!bar.contains("held"))
    }

    @Test func aNarrowRowCutsThePhaseBeforeTheReason() {
        #expect(statusBar(held, width: 60) == " ✓ Synced just …  ↑ 2 pending · 1 held: over the 1 MB limit ")
    }

    /// At every width from 60, with a long offline reason, a long message and a long held
    /// reason: the counts (held ones too) stay whole; the texts are cut with "…".
    @Test func theCountsStayWholeAtEveryWidth() {
        let status = SyncStatus(
            phase: .offline(reason: "the cloud folder is on a disk that is not mounted right now, try later"),
            pendingCount: 3, conflictCount: 1, heldCount: 2,
            heldReason: "over the 1 MB limit, and this reason goes on and on to be cut somewhere")
        for width in 60...140 {
            let bar = statusBar(
                status, width: width, message: StatusMessage("A message long enough to be cut at most widths, surely"))
            #expect(bar.contains("⚠ 1 conflict  ↑ 3 pending · 2 held"), "at \(width): \(bar)")
            #expect(bar.contains("offline"), "at \(width): \(bar)")
            #expect(bar.hasSuffix("… "), "at \(width): \(bar)")
            #expect(TextWidth.width(of: bar) == width, "at \(width): \(bar)")
        }
    }
}
