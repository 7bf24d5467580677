import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// The preview lists the selected note's attachments; `a` moves among them, `o` asks the
/// runtime to open one (`Effect.openAttachment`; NotesApp does no I/O).
@Suite struct AttachmentPreviewTests {
    static let size = Size(width: 100, height: 20)
    static let files = [
        NotesCore.Attachment(name: "report.pdf", size: 3_500_000, sha256: String(repeating: "a", count: 64)),
        NotesCore.Attachment(name: "notes.txt", size: 18, sha256: String(repeating: "b", count: 64)),
    ]

    func loaded(_ attachments: [NotesCore.Attachment]) -> AppState {
        var state = AppState.fixture(size: Self.size)
        _ = state.requestPreview()
        _ = update(
            &state,
            .previewLoaded(
                noteID(1),
                NoteContent(
                    id: noteID(1), title: "Groceries", body: "milk\neggs", modifiedAt: testNow,
                    attachments: attachments)))
        return state
    }

    func screenText(_ state: AppState) -> String {
        let screen = view(state, Self.size)
        return (0..<screen.size.height).map { y in
            (0..<screen.size.width).map { screen[$0, y].isContinuation ? "" : screen[$0, y].grapheme }.joined()
        }.joined(separator: "\n")
    }

    @Test func thePreviewListsAttachmentsWithSizesUnderTheText() {
        let text = screenText(loaded(Self.files))
        #expect(text.contains("Attachments (2): a next, o open"))
        #expect(text.contains("▸ report.pdf  3.3 MB"))
        #expect(text.contains("  notes.txt  18 B"))
        #expect(text.contains("milk"))
        #expect(!screenText(loaded([])).contains("Attachments"))
    }

    @Test func aMovesTheMarkerAndOOpensTheMarkedAttachment() {
        var state = loaded(Self.files)
        #expect(
            send("o", to: &state)
                == [.openAttachment(noteID: noteID(1), name: "report.pdf", sha256: Self.files[0].sha256)])
        #expect(send("a", to: &state) == [])
        #expect(screenText(state).contains("▸ notes.txt"))
        #expect(
            send("o", to: &state)
                == [.openAttachment(noteID: noteID(1), name: "notes.txt", sha256: Self.files[1].sha256)])
        _ = send("a", to: &state)
        #expect(state.attachmentIndex == 0, "a wraps around")
        _ = update(&state, .attachmentOpened("report.pdf"))
        #expect(state.message?.text == "Opened “report.pdf”")
    }

    @Test func oOnANoteWithoutAttachmentsSaysSo() {
        var state = loaded([])
        let effects = send("o", to: &state)
        #expect(!effects.contains { if case .openAttachment = $0 { true } else { false } })
        #expect(state.message?.text == "This note has no attachments")
    }
}

/// A note whose attachment has not fully arrived: ↻ "waiting for attachment" (SYNC-FORMAT rule 15).
@Suite struct AttachmentWaitingStatusTests {
    @Test func theStatusBarSaysWaitingForAttachmentApartFromOtherWaitingFiles() {
        var state = AppState.fixture(size: Size(width: 100, height: 15))
        var status = SyncStatus(phase: .idle(lastSync: testNow.addingTimeInterval(-60)), waitingCount: 2)
        status.attachmentWaitingCount = 1
        state.syncStatus = status
        let screen = view(state, Size(width: 100, height: 15))
        let bar = (0..<100).map { screen[$0, 14].isContinuation ? "" : screen[$0, 14].grapheme }.joined()
        #expect(bar.contains("↻ waiting for attachment"), "\(bar)")
        #expect(bar.contains("1 file waiting"), "\(bar)")
    }

    /// The writer's side (issue 21 item 6): a chunk of its own that other devices wait for.
    @Test func theStatusBarNamesDamagedChunksAndTheFix() {
        var state = AppState.fixture(size: Size(width: 100, height: 15))
        var status = SyncStatus(phase: .idle(lastSync: testNow.addingTimeInterval(-60)))
        status.damagedChunkCount = 2
        state.syncStatus = status
        let screen = view(state, Size(width: 100, height: 15))
        let bar = (0..<100).map { screen[$0, 14].isContinuation ? "" : screen[$0, 14].grapheme }.joined()
        #expect(bar.contains("⚠ 2 damaged chunks: sync --repair"), "\(bar)")
    }
}
