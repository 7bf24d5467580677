import Foundation
import TerminalUI

/// A note asked for with `Effect.loadNote` whose text has not arrived: what the editor knows
/// of it until then.
public struct OpeningNote: Equatable, Sendable {
    public var noteID: UUID
    /// Created by `n` in this session: left empty, it is discarded rather than kept.
    var isNew = false
    /// Keys and pastes that arrived while the note was loading, in order: replayed into the
    /// text once it is there (a huge note takes a while; nothing typed meanwhile is lost).
    var pendingInput: [InputEvent] = []

    init(noteID: UUID, isNew: Bool = false) {
        self.noteID = noteID
        self.isNew = isNew
    }
}
