import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// The status bar (the last row) in each sync state, at 60 columns.
@Suite struct ViewStatusBarTests {
    func statusBar(_ status: SyncStatus, message: StatusMessage? = nil) -> Buffer {
        var state = AppState.fixture()
        state.syncStatus = status
        state.message = message
        return row(14, of: view(state, Size(width: 60, height: 15)))
    }

    let bar = Style().reverse()

    @Test func localOnly() {
        #expect(
            statusBar(.localOnly)
                == Buffer(lines: [" local only                 / search  n new  ? help  q quit "], style: bar))
    }

    @Test func syncedAWhileAgo() {
        let status = SyncStatus(phase: .idle(lastSync: testNow.addingTimeInterval(-150)))
        #expect(
            statusBar(status)
                == Buffer(lines: [" ✓ Synced 2 min ago         / search  n new  ? help  q quit "], style: bar))
    }

    @Test func neverSynced() {
        #expect(
            statusBar(SyncStatus(phase: .idle(lastSync: nil)))
                == Buffer(lines: [" not synced yet             / search  n new  ? help  q quit "], style: bar))
    }

    @Test func syncingShowsProgress() {
        #expect(
            statusBar(SyncStatus(phase: .syncing(done: 12, total: 40)))
                == Buffer(lines: [" Syncing… 12/40             / search  n new  ? help  q quit "], style: bar))
    }

    @Test func offlineShowsTheReason() {
        #expect(
            statusBar(SyncStatus(phase: .offline(reason: "cloud folder not found")))
                == Buffer(lines: [" offline: cloud folder not found      n new  ? help  q quit "], style: bar))
    }

    @Test func errorShowsTheMessage() {
        #expect(
            statusBar(SyncStatus(phase: .error(message: "disk full")))
                == Buffer(lines: [" sync error: disk full      / search  n new  ? help  q quit "], style: bar))
    }

    @Test func signInFailedShowsTheReasonNotLocalOnly() {
        #expect(
            statusBar(SyncStatus(phase: .signInFailed(reason: "the S3 server refused the credentials")))
                == Buffer(lines: [" sign-in failed: the S3 server refused the credentials      "], style: bar))
    }

    @Test func aCloudFolderOnThisDiskSaysSavedNotSynced() {
        var status = SyncStatus(phase: .idle(lastSync: testNow.addingTimeInterval(-150)))
        status.cloudOnThisDisk = true
        #expect(
            statusBar(status)
                == Buffer(lines: [" ✓ Saved 2 min ago · cloud on this disk      ? help  q quit "], style: bar))
        // With room, the first-run hint says how to bind a real one.
        var state = AppState.fixture()
        state.syncStatus = status
        let wide = row(14, of: view(state, Size(width: 140, height: 15)))
        #expect(
            wide
                == Buffer(
                    lines: [
                        " ✓ Saved 2 min ago · cloud on this disk" + String(repeating: " ", count: 15)
                            + "cloudnotes sync init PATH keeps a copy off this disk  / search  n new  ? help  q quit "
                    ], style: bar))
    }

    @Test func conflictsAndPendingChangesAreCounted() {
        let status = SyncStatus(phase: .idle(lastSync: testNow), pendingCount: 3, conflictCount: 2)
        #expect(
            statusBar(status)
                == Buffer(lines: [" ✓ Synced just now  ⚠ 2 conflicts  ↑ 3 pending       q quit "], style: bar))
    }

    @Test func aMessageReplacesTheKeyHintsInItsSeverity() {
        let screen = statusBar(.localOnly, message: StatusMessage("cannot save: disk full", severity: .error))
        #expect(text(screen) == Buffer(lines: [" local only                          cannot save: disk full "]))
        #expect(screen[40, 0].style == Style().reverse().foreground(.red).bold())
        #expect(screen[3, 0].style == bar)
    }

    @Test func theTrashUndoLineShowsAfterD() {
        var state = AppState.fixture()
        _ = send("d", to: &state)
        let screen = row(14, of: view(state, Size(width: 60, height: 15)))
        #expect(
            screen == Buffer(lines: [" local only         Moved “Groceries” to the trash. u: undo "], style: bar))
    }

    /// At every width from 60, a long offline reason and a long message are cut, never the
    /// counts or the editor's save state.
    @Test func theCountsAndTheSaveStateStayVisibleAtEveryWidth() {
        for width in 60...140 {
            let size = Size(width: width, height: 15)
            var state = AppState.editing(
                NoteContent(id: noteID(1), title: "Groceries", body: "milk", modifiedAt: testNow, headRevision: "r1"),
                size: size)
            _ = send("x", to: &state)
            state.syncStatus = SyncStatus(
                phase: .offline(reason: "the cloud folder is on a disk that is not mounted right now, try later"),
                pendingCount: 3, conflictCount: 1)
            state.message = StatusMessage(
                "This note changed on another device: your edits were kept and merged with theirs", severity: .warning)
            let bar = text(row(14, of: view(state, size))).lines[0]
            #expect(bar.contains("⚠ 1 conflict  ↑ 3 pending · edited"), "at \(width): \(bar)")
            #expect(bar.contains("offline"), "at \(width): \(bar)")
            #expect(bar.hasSuffix("… "), "at \(width): \(bar)")
        }
    }
}
