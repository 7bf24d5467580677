import Foundation

/// A note at one version: what the preview pane asked for.
struct PreviewKey: Equatable, Sendable {
    var id: UUID
    var modifiedAt: Date
}

extension AppState {
    /// The effect that loads the selected note into the preview pane, when the pane shows a
    /// preview and its note (or its version) is not loaded or asked for yet. The runtime calls
    /// this once its input is drained, before painting, so a held key asks only for the note
    /// the selection stops on.
    public mutating func requestPreview() -> [Effect] {
        let previewing =
            switch focus {
            case .trash: true
            case .list, .search: !paneShowsEditor
            case .editor, .help, .history, .resolver, .picker: false
            }
        guard previewing, let row = previewRow else { return [] }
        let key = PreviewKey(id: row.id, modifiedAt: row.modifiedAt)
        if let preview, preview.id == row.id, preview.modifiedAt == row.modifiedAt, !previewStale { return [] }
        guard previewRequested != key || previewStale else { return [] }
        previewRequested = key
        previewStale = false
        return [.loadPreview(row.id)]
    }

    /// Keeps the loaded note when it is still the selected one; a gone note clears the preview.
    mutating func previewLoaded(_ id: UUID, _ content: NoteContent?) {
        guard let content else {
            if preview?.id == id { preview = nil }
            return
        }
        guard content.id == id, previewRow?.id == id else { return }
        if preview?.id != id {
            attachmentIndex = 0
            taskIndex = content.tasks.firstIndex { !$0.isDone } ?? 0
            taskCursorMoved = false
        }
        preview = content
        taskIndex = min(taskIndex, max(0, content.tasks.count - 1))
        attachmentIndex = min(attachmentIndex, max(0, content.attachments.count - 1))
    }

    /// `a`: the next attachment of the previewed note; `o`: open it (SYNC-FORMAT rule 15's
    /// attachments, opened by the runtime with `$OPENER` or `xdg-open`).
    mutating func attachmentKey(open: Bool) -> [Effect] {
        guard let row = previewRow, let note = preview, note.id == row.id, !note.attachments.isEmpty else {
            return show("This note has no attachments")
        }
        guard open else {
            attachmentIndex = (attachmentIndex + 1) % note.attachments.count
            return []
        }
        let attachment = note.attachments[min(attachmentIndex, note.attachments.count - 1)]
        return [.openAttachment(noteID: note.id, name: attachment.name, sha256: attachment.sha256)]
    }

    /// The note the preview pane is for: the Trash view's selected note while it is open,
    /// else the list's.
    var previewRow: NoteRow? {
        if case .trash(let view) = focus { return view.selectedRow }
        return selectedRow
    }
}
