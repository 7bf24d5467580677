import NotesCore

/// The previewed note's tasks (issue 25, tasks across notes): Space ticks the one under the
/// task cursor (or opens it again), `[` and `]` move the cursor, and the preview scrolls to it.
extension AppState {
    /// Space: marks the task under the cursor done, or open again. The preview shows the new
    /// state at once; the store's answer reloads it. Each press is its own edit on the note's
    /// head, in order, so a quick second press opens the task again.
    mutating func toggleTask() -> [Effect] {
        guard var note = taskPreview else { return [] }
        guard note.tasks.indices.contains(taskIndex) else { return show("This note has no tasks (- [ ])") }
        let task = note.tasks[taskIndex]
        let done = !task.isDone
        taskCursorMoved = true
        if let body = TaskItem.setting(line: task.line, done: done, in: note.body) {
            note.body = body
            note.tasks[taskIndex].isDone = done
            preview = note
        }
        return [.setTask(noteID: note.id, line: task.line, done: done)]
    }

    /// `]` and `[`: the next or previous task of the previewed note, stopping at either end.
    mutating func moveTask(by step: Int) -> [Effect] {
        guard let note = taskPreview else { return [] }
        guard !note.tasks.isEmpty else { return show("This note has no tasks (- [ ])") }
        taskIndex = min(max(0, taskIndex + step), note.tasks.count - 1)
        taskCursorMoved = true
        return []
    }

    /// The preview's note when it is the selected one and loaded (not while a note is open in
    /// the pane: Space is the editor's there).
    var taskPreview: NoteContent? {
        guard !paneShowsEditor, let row = selectedRow, let note = preview, note.id == row.id else { return nil }
        return note
    }
}
