/// A link from one note's body to another note (ARCHITECTURE §2, links): `[[Title]]`,
/// `[[Title|shown]]`, `[[Title#heading]]`, `[[Folder/Title]]`, and Markdown links to another
/// note's file, `[text](Other%20Note.md)` or `[text](Work/Other.md#heading)`.
public struct NoteLink: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case wiki, markdown
    }

    public var kind: Kind
    /// The note named: a title, or a file name without `.md` (percent-decoded).
    public var target: String
    /// The folder part of the path (`Work/Projects`), when the link names one.
    public var folder: String?
    public var heading: String?
    /// A wiki link's shown text (`[[Title|shown]]`); a Markdown link's text.
    public var shown: String?
    /// Where the target is written in the body, in UTF-8 bytes (what a rename of the note
    /// replaces): the title of a wiki link, the file name's stem of a Markdown link.
    public var targetRange: Range<Int>
    /// The whole link in the body, in UTF-8 bytes (`[[…]]`, `[…](…)`).
    public var range: Range<Int>

    public init(
        kind: Kind, target: String, folder: String? = nil, heading: String? = nil, shown: String? = nil,
        targetRange: Range<Int>, range: Range<Int>? = nil
    ) {
        self.range = range ?? targetRange
        self.kind = kind
        self.target = target
        self.folder = folder
        self.heading = heading
        self.shown = shown
        self.targetRange = targetRange
    }
}
