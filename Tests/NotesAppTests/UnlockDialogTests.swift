import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// The passphrase dialog of an encrypted cloud folder whose key is not remembered: the app opens
/// on the local store, asks, never draws the passphrase, says why a try failed, and `s` asks again.
@Suite struct UnlockDialogTests {
    func locked() -> AppState {
        var state = AppState.fixture(size: Size(width: 80, height: 20))
        _ = update(&state, .unlockNeeded)
        return state
    }

    @Test func theDialogAsksWithoutDrawingThePassphraseAndEnterSendsIt() {
        var state = locked()
        #expect(send("hunter2", to: &state).isEmpty, "typing goes to the dialog, not the list")
        let screen = text(view(state, state.size)).lines.joined(separator: "\n")
        #expect(screen.contains("Encrypted cloud folder") && screen.contains("•••••••"))
        #expect(!screen.contains("hunter2"))
        #expect(send("<BS><Enter>", to: &state) == [.unlock(passphrase: "hunter")])
        let checking = text(view(state, state.size)).lines.joined(separator: "\n")
        #expect(checking.contains("Checking…") && !checking.contains("hunter"))
        #expect(send("x<Enter>", to: &state).isEmpty, "one try at a time")
    }

    @Test func aWrongPassphraseIsSaidAndTheDialogAsksAgain() {
        var state = locked()
        _ = send("nope<Enter>", to: &state)
        _ = update(&state, .unlockFinished(error: "wrong passphrase for this encrypted cloud folder"))
        let screen = text(view(state, state.size)).lines.joined(separator: "\n")
        #expect(screen.contains("wrong passphrase"))
        #expect(send("right<Enter>", to: &state) == [.unlock(passphrase: "right")])
        _ = update(&state, .unlockFinished(error: nil))
        #expect(state.unlock == nil && !state.syncLocked)
        #expect(state.message == StatusMessage("Unlocked: syncing"))
        #expect(send("s", to: &state).contains(.syncNow), "unlocked, s syncs")
    }

    @Test func escPutsTheDialogAwayAndSAsksAgainWhileSyncIsLocked() {
        var state = locked()
        #expect(send("<Enter>", to: &state).isEmpty, "an empty passphrase is not sent")
        _ = send("<Esc>", to: &state)
        #expect(state.unlock == nil && state.syncLocked)
        let before = state.selectedID
        _ = send("j", to: &state)
        #expect(state.selectedID != before, "the list has its keys back")
        #expect(!send("s", to: &state).contains(.syncNow))
        #expect(state.unlock != nil, "s opens the dialog again")
    }
}
