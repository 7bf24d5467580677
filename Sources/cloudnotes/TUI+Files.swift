import NotesFiles
import NotesRuntime
import NotesStore

extension TUI {
    /// The app's part in the live notes folder (`files on`): the keeper whose ticks the runtime
    /// runs (`RuntimeOptions.notesFolder`), set in `options`; nil when no folder is set.
    static func keepNotesFolder(
        _ context: Context, _ store: NoteStore, _ options: inout RuntimeOptions
    ) throws -> MirrorKeeper? {
        guard let keeper = try FilesSetup.keeper(context, store) else { return nil }
        let interval = options.notesFolderInterval
        options.notesFolder = {
            let step = keeper.tick(elapsed: interval)
            return NotesFolderTick(line: step.statusLine, changedNotes: step.changedNotes)
        }
        return keeper
    }
}
