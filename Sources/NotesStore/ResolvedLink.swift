import NotesCore

/// A link of a note's body and the note it leads to, if any (`NoteStore.links(of:)`).
public struct ResolvedLink: Sendable, Equatable {
    public var kind: NoteLink.Kind
    /// The title or file name the link names, as written.
    public var target: String
    public var heading: String?
    public var shown: String?
    /// The note it resolves to (outside the trash); nil when no note has that title.
    public var note: NoteSummary?

    public init(kind: NoteLink.Kind, target: String, heading: String?, shown: String?, note: NoteSummary?) {
        self.kind = kind
        self.target = target
        self.heading = heading
        self.shown = shown
        self.note = note
    }
}
