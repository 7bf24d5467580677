import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// The editor pane through `update`: loading, autosave, quitting, remote changes.
@Suite struct EditorUpdateTests {
    let autosave = Duration.milliseconds(1500)

    func content(_ title: String = "Groceries", _ body: String = "milk, eggs", rev: String = "r1") -> NoteContent {
        NoteContent(id: noteID(1), title: title, body: body, modifiedAt: testNow, headRevision: rev)
    }

    @Test func theLoadedNoteIsEditedWithTheTitleAsItsFirstLine() {
        var state = AppState.editing(content())
        #expect(state.editor.loaded?.text == "Groceries\nmilk, eggs")
        #expect(state.editor.loaded?.cursor == TextPosition(line: 0, column: 0))
        _ = send("<End>!<Down><End>, bread", to: &state)
        #expect(state.editor.loaded?.text == "Groceries!\nmilk, eggs, bread")
    }

    /// Config `autosaveSeconds` reaches the editor through the state: typing waits that long.
    @Test func theAutosaveWaitsTheConfiguredDelay() {
        var state = AppState.editing(content())
        state.autosaveDelay = .seconds(10)
        #expect(send("a", to: &state).first == .scheduleTimer(.autosave(generation: 1), after: .seconds(10)))
    }

    @Test func everyChangeRestartsTheDebounceAndOnlyTheNewestTimerSaves() {
        var state = AppState.editing(content())
        // The first change also starts the maximum wait (EditorMaxWaitTests).
        #expect(
            send("a", to: &state) == [
                .scheduleTimer(.autosave(generation: 1), after: autosave),
                .scheduleTimer(.autosaveDeadline(generation: 1), after: .seconds(5)),
            ])
        #expect(send("b", to: &state) == [.scheduleTimer(.autosave(generation: 2), after: autosave)])
        // Motion changes nothing: no timer.
        #expect(send("<Right>", to: &state).isEmpty)
        #expect(update(&state, .timerFired(.autosave(generation: 1))).isEmpty)
        #expect(
            update(&state, .timerFired(.autosave(generation: 2))) == [
                .saveNote(id: noteID(1), title: "abGroceries", body: "milk, eggs", baseRevision: "r1")
            ])
    }

    @Test func textChangedAndChangedBackIsNotSaved() {
        var state = AppState.editing(content())
        _ = send("x<BS>", to: &state)
        #expect(update(&state, .timerFired(.autosave(generation: 2))).isEmpty)
        #expect(state.editor.loaded?.hasUnsavedEdits == false)
        // Leaving the pane with nothing changed saves nothing either.
        #expect(send("<Esc>", to: &state).isEmpty)
    }

    @Test func leavingThePaneSavesAtOnce() {
        var state = AppState.editing(content())
        _ = send("<C-End>\nmore", to: &state)
        #expect(
            send("<Esc>", to: &state) == [
                .saveNote(id: noteID(1), title: "Groceries", body: "milk, eggs\nmore", baseRevision: "r1")
            ])
        #expect(state.focus == .list)
        // The save's answer moves the base on; the pending debounce then finds nothing to do.
        let saved = SavedNote(
            id: noteID(1), title: "Groceries", body: "milk, eggs\nmore", headRevision: "r2", modifiedAt: testNow)
        // The list shows the saved note at once: it is reloaded around the selected note.
        #expect(update(&state, .noteSaved(saved)) == [.locateInList(id: noteID(1), row: 0, limit: 21)])
        #expect(state.editor.loaded?.baseRevision == "r2")
        #expect(update(&state, .timerFired(.autosave(generation: 5))).isEmpty)
    }

    @Test func oneSaveAtATimeAndTheAnswerSavesWhatWasTypedMeanwhile() {
        var state = AppState.editing(content("T", ""))
        _ = send("<End>1", to: &state)
        // The new title is saved, then the store is asked about links to the old one.
        #expect(
            send("<C-s>", to: &state) == [
                .saveNote(id: noteID(1), title: "T1", body: "", baseRevision: "r1"),
                .countTitleLinks(noteID: noteID(1), oldTitle: "T", newTitle: "T1"),
            ])
        _ = send("2", to: &state)
        // A second save waits for the first one's answer.
        #expect(send("<C-s>", to: &state) == [.countTitleLinks(noteID: noteID(1), oldTitle: "T1", newTitle: "T12")])
        let saved = SavedNote(id: noteID(1), title: "T1", body: "", headRevision: "r2", modifiedAt: testNow)
        #expect(update(&state, .noteSaved(saved)) == [.locateInList(id: noteID(1), row: 0, limit: 21)])
        #expect(state.editor.loaded?.text == "T12")
        #expect(
            update(&state, .timerFired(.autosave(generation: 2))) == [
                .saveNote(id: noteID(1), title: "T12", body: "", baseRevision: "r2")
            ])
    }

    @Test func qSavesFirstAndQuitsWhenTheStoreHasIt() {
        var state = AppState.editing(content())
        _ = send("<Down>X<Esc>", to: &state)
        let saved = SavedNote(
            id: noteID(1), title: "Groceries", body: "Xmilk, eggs", headRevision: "r2", modifiedAt: testNow)
        _ = update(&state, .noteSaved(saved))
        // Saved already: q quits at once.
        #expect(send("q", to: &state) == [.quit])
    }

    @Test func qWithUnsavedTextWaitsForTheSave() {
        var state = AppState.editing(content())
        _ = send("<Down>X", to: &state)
        state.focus = .list
        let effects = send("q", to: &state)
        #expect(effects.first == .saveNote(id: noteID(1), title: "Groceries", body: "Xmilk, eggs", baseRevision: "r1"))
        #expect(!effects.contains(.quit))
        #expect(state.quitting == .afterSave)
        let saved = SavedNote(
            id: noteID(1), title: "Groceries", body: "Xmilk, eggs", headRevision: "r2", modifiedAt: testNow)
        #expect(update(&state, .noteSaved(saved)) == [.quit])
    }

    @Test func ctrlQQuitsFromTheEditorSavingFirst() {
        var state = AppState.editing(content())
        _ = send("<Down>X", to: &state)
        let effects = send("<C-q>", to: &state)
        #expect(effects.first == .saveNote(id: noteID(1), title: "Groceries", body: "Xmilk, eggs", baseRevision: "r1"))
        #expect(state.quitting == .afterSave)
    }

    @Test func aFailedSaveOnQuitKeepsTheAppOpenAndAsks() {
        var state = AppState.editing(content())
        _ = send("<Down>X", to: &state)
        state.focus = .list
        _ = send("q", to: &state)
        _ = update(&state, .saveFailed(noteID(1), message: "disk full"))
        #expect(state.quitting == .confirmWithoutSaving)
        #expect(state.message == StatusMessage("Not saved: disk full. q: quit without saving", severity: .error))
        #expect(state.editor.loaded?.text == "Groceries\nXmilk, eggs")
        #expect(send("q", to: &state) == [.quit])
    }

    @Test func terminateSavesThenQuitsInOneBatch() {
        var state = AppState.editing(content())
        _ = send("X", to: &state)
        #expect(
            update(&state, .terminate) == [
                .saveNote(id: noteID(1), title: "XGroceries", body: "milk, eggs", baseRevision: "r1"), .quit,
            ])
        var clean = AppState.editing(content())
        #expect(update(&clean, .terminate) == [.quit])
    }

    @Test func aRemoteChangeReloadsACleanNoteInPlaceKeepingTheCursor() {
        var state = AppState.editing(content())
        _ = send("<Down><Right><Right>", to: &state)
        let effects = update(&state, .storeChanged([noteID(1)]))
        #expect(effects.contains(.loadNote(noteID(1))))
        #expect(effects.contains(.locateInList(id: noteID(1), row: 0, limit: 21)))
        _ = update(&state, .noteLoaded(content("Groceries", "milk, eggs, butter", rev: "r9")))
        #expect(state.editor.loaded?.text == "Groceries\nmilk, eggs, butter")
        #expect(state.editor.loaded?.cursor == TextPosition(line: 1, column: 2))
        #expect(state.editor.loaded?.baseRevision == "r9")
        #expect(state.editor.loaded?.hasUnsavedEdits == false)
    }

    @Test func aRemoteChangeNeverOverwritesUnsavedEditsTheyAreSavedOverTheirBaseAndMerged() {
        var state = AppState.editing(content())
        _ = send("<C-End> and tea", to: &state)
        // The store changed: the note is read again before anything is saved.
        let effects = update(&state, .storeChanged([noteID(1)]))
        #expect(effects.contains(.loadNote(noteID(1))))
        #expect(!effects.contains { if case .saveNote = $0 { true } else { false } })
        // Its head moved: the typing is saved over the revision it started from.
        let loaded = update(&state, .noteLoaded(content("Groceries", "milk, eggs\nbread", rev: "r2")))
        #expect(
            loaded.contains(
                .saveNote(id: noteID(1), title: "Groceries", body: "milk, eggs and tea", baseRevision: "r1")))
        #expect(state.editor.loaded?.text == "Groceries\nmilk, eggs and tea")
        // The runtime merged with the other device's change: the editor shows the merge and says so.
        let merged = SavedNote(
            id: noteID(1), title: "Groceries", body: "milk, eggs and tea\nbread", headRevision: "r3",
            modifiedAt: testNow,
            merged: true)
        _ = update(&state, .noteSaved(merged))
        #expect(state.editor.loaded?.text == "Groceries\nmilk, eggs and tea\nbread")
        #expect(state.editor.loaded?.hasUnsavedEdits == false)
        #expect(state.message?.severity == .warning)
        #expect(state.message?.text.contains("changed on another device") == true)
    }

    /// Sync marking the note sent (or any write that leaves its head) changes the store but not
    /// the note: the typing waits for its autosave, nothing is saved early.
    @Test func aStoreChangeThatLeavesTheHeadSavesNothingEarly() {
        var state = AppState.editing(content())
        _ = send("<C-End> and tea", to: &state)
        #expect(update(&state, .storeChanged([noteID(1)])).contains(.loadNote(noteID(1))))
        #expect(update(&state, .noteLoaded(content(rev: "r1"))).isEmpty)
        #expect(state.editor.loaded?.text == "Groceries\nmilk, eggs and tea")
        #expect(state.editor.loaded?.hasUnsavedEdits == true)
        #expect(state.editor.loaded?.baseRevision == "r1")
    }

    @Test func aChangeReportedWhileSavingIsLookedAtOnceTheSaveIsAnswered() {
        var state = AppState.editing(content())
        _ = send("X<Esc>", to: &state)
        // $EDITOR (or sync) changed the note while the pane's save was running.
        #expect(!update(&state, .storeChanged([noteID(1)])).contains(.loadNote(noteID(1))))
        let saved = SavedNote(
            id: noteID(1), title: "XGroceries", body: "milk, eggs", headRevision: "r2", modifiedAt: testNow)
        #expect(
            update(&state, .noteSaved(saved)) == [
                .locateInList(id: noteID(1), row: 0, limit: 21), .loadNote(noteID(1)),
            ])
        _ = update(&state, .noteLoaded(content("XGroceries", "milk, eggs, from vim", rev: "r3")))
        #expect(state.editor.loaded?.text == "XGroceries\nmilk, eggs, from vim")
        #expect(state.message == StatusMessage("Reloaded: the note changed outside this editor"))
        // Our own save's echo (same head) changes nothing.
        _ = update(&state, .storeChanged([noteID(1)]))
        #expect(update(&state, .noteLoaded(content("XGroceries", "milk, eggs, from vim", rev: "r3"))).isEmpty)
    }

    @Test func aLargePasteIsOneEditAndOneTimerOfEachKind() {
        var state = AppState.editing(content("", ""))
        let paste = String(repeating: "line of pasted text\n", count: 50_000)
        #expect(
            update(&state, .input(.paste(paste))) == [
                .scheduleTimer(.autosave(generation: 1), after: autosave),
                .scheduleTimer(.autosaveDeadline(generation: 1), after: .seconds(5)),
            ])
        #expect(state.editor.loaded?.text == paste)
        #expect(state.editor.loaded?.cursor == TextPosition(line: 50_000, column: 0))
    }

    @Test func nCreatesANoteAndOpensItInTheEditor() {
        var state = AppState.fixture()
        #expect(send("n", to: &state) == [.createNote])
        // The new note is selected: the list is loaded around it.
        #expect(
            update(&state, .noteCreated(noteID(9))) == [
                .loadNote(noteID(9)), .locateInList(id: noteID(9), row: 0, limit: 21),
            ])
        #expect(state.selectedID == noteID(9))
        #expect(state.focus == .editor)
        _ = update(
            &state,
            .noteLoaded(NoteContent(id: noteID(9), title: "", body: "", modifiedAt: testNow, headRevision: "n1")))
        _ = send("Title<Enter>Body", to: &state)
        #expect(
            send("<Esc>", to: &state) == [.saveNote(id: noteID(9), title: "Title", body: "Body", baseRevision: "n1")])
    }

    @Test func openingAnotherNoteSavesTheFirst() {
        var state = AppState.editing(content())
        _ = send("X<Esc>j", to: &state)
        #expect(send("<Enter>", to: &state) == [.loadNote(noteID(2))])
        var dirty = AppState.editing(content())
        _ = send("X", to: &dirty)
        dirty.focus = .list
        _ = send("j", to: &dirty)
        #expect(
            send("<Enter>", to: &dirty) == [
                .saveNote(id: noteID(1), title: "XGroceries", body: "milk, eggs", baseRevision: "r1"),
                .countTitleLinks(noteID: noteID(1), oldTitle: "Groceries", newTitle: "XGroceries"),
                .loadNote(noteID(2)),
            ])
    }

    @Test func theExternalEditorGetsTheTextTheStoreWasAskedToSaveFirst() {
        var state = AppState.editing(content())
        _ = send("X<Esc>", to: &state)
        _ = update(&state, .saveFailed(noteID(1), message: "database is locked"))
        // The text is still unsaved: `e` saves it before handing the note to $EDITOR.
        #expect(
            send("e", to: &state) == [
                .saveNote(id: noteID(1), title: "XGroceries", body: "milk, eggs", baseRevision: "r1"),
                .openExternalEditor(noteID(1)),
            ])
    }

    @Test func undoAndRedoKeysAndWordMotion() {
        var state = AppState.editing(content("one two", ""))
        _ = send("<End> three", to: &state)
        _ = send("<A-u>", to: &state)
        #expect(state.editor.loaded?.text == "one two")
        _ = send("<A-e>", to: &state)
        #expect(state.editor.loaded?.text == "one two three")
        _ = send("<C-z>", to: &state)
        #expect(state.editor.loaded?.text == "one two")
        _ = send("<C-y>", to: &state)
        #expect(state.editor.loaded?.text == "one two three")
        _ = send("<C-Left><C-Left>", to: &state)
        #expect(state.editor.loaded?.cursor == TextPosition(line: 0, column: 4))
        _ = send("<A-Right>", to: &state)
        #expect(state.editor.loaded?.cursor == TextPosition(line: 0, column: 7))
    }
}

extension AppState {
    /// The fixture with note 1 open in the editor, loaded with `content`, focused.
    static func editing(_ content: NoteContent, size: Size = Size(width: 60, height: 15)) -> AppState {
        var state = AppState.fixture(size: size)
        _ = update(&state, .input(.key(.enter)))
        _ = update(&state, .noteLoaded(content))
        return state
    }
}
