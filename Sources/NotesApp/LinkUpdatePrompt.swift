import Foundation

/// The question the status bar asks after a note was retitled in the editor while other notes
/// link to its old title: "Update 2 links to “Old” → “New”? y/n" (ARCHITECTURE §6). `y` rewrites
/// those links as `cloudnotes rename --update-links` does; `n` leaves them.
public struct LinkUpdatePrompt: Equatable, Sendable {
    public var noteID: UUID
    public var oldTitle: String
    public var newTitle: String
    /// How many notes link to the old title (and led to this note).
    public var count: Int

    public init(noteID: UUID, oldTitle: String, newTitle: String, count: Int) {
        self.noteID = noteID
        self.oldTitle = oldTitle
        self.newTitle = newTitle
        self.count = count
    }

    /// The status bar's line.
    public var question: String {
        "Update \(count) link\(count == 1 ? "" : "s") to “\(AppState.shortTitle(oldTitle))” → “\(AppState.shortTitle(newTitle))”? y/n"
    }
}
