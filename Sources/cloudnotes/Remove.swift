import ArgumentParser
import Foundation
import NotesCore
import NotesStore
import NotesSync

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Move notes to the trash (restore brings them back).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var notes: [String]

    func run() throws {
        let store = try Context(global).openStore()
        let waitingForRoom = Self.waitingForRoom(store)
        for note in try store.resolveAll(notes) {
            _ = try store.trash(note.id)
            if Output.stdoutIsTerminal {
                Output.line("moved to trash: \(Format.shortID(note.id)) \(TerminalSafeText.sanitize(note.title))")
            }
            if waitingForRoom.contains(note.id.lowercasedString) {
                let id = note.id.lowercasedString
                Output.warn(
                    "note \(id) waits on this device for room in the full cloud folder, and in the trash it still "
                        + "does (it keeps its attachments): other devices keep it until there is room, or until "
                        + "`cloudnotes purge \(id)` deletes it for good")
            }
        }
    }

    /// The notes the last sync held back because the cloud folder is full (issue 21 item 13);
    /// none when the engine state does not read (the next sync says why).
    static func waitingForRoom(_ store: NoteStore) -> Set<String> {
        // Only a notice is lost: the note is trashed either way, and `sync` reports the state.
        guard let state = try? store.engineState().map(SyncEngineState.init(serialized:)) else { return [] }
        return Set(state.held.filter { SyncEngine.isWaitingForRoom($0.value) }.keys)
    }
}
