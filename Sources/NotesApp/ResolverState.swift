import Foundation
import NotesCore
import TerminalUI

/// The conflict resolver (`c`): both versions of a note, and the user's choice.
public struct ResolverState: Equatable, Sendable {
    public var noteID: UUID
    public var title: String
    /// nil while loading.
    public var versions: ConflictVersions? {
        didSet {
            let lines = versions.map { LineDiff.differingLines($0.mine.text, $0.theirs.text) } ?? (a: [], b: [])
            (differingMine, differingTheirs) = (lines.a, lines.b)
        }
    }
    /// The lines of each side that the other does not have (highlighted), computed once per load.
    var differingMine: Set<Int> = []
    var differingTheirs: Set<Int> = []
    /// Rows both versions are scrolled down by.
    public var scroll = 0
    /// The text being edited after `e`: a merge of both sides with conflict markers to fix.
    var editing: TextEditor<SafeGlyphs>?
    /// Notes still in conflict after this one (`c` walks through them).
    public var remaining: [NoteRow] = []
    /// A resolution was sent and is awaited.
    public var resolving = false

    init(noteID: UUID, title: String) {
        self.noteID = noteID
        self.title = title
    }

    public var isEditing: Bool { editing != nil }

    /// The edit mode's text area at a terminal size: the resolver's pane less its heading
    /// and a one-column margin.
    static func editViewport(_ size: Size) -> Size {
        let middle = Layout(size).middle
        return Size(width: max(1, middle.width - 1), height: max(1, middle.height - 1))
    }

    /// The text `e` starts from: a three-way merge with conflict markers where the sides
    /// disagree (both texts one after the other when there is no common ancestor).
    static func editText(_ versions: ConflictVersions) -> String {
        guard let base = versions.base else {
            return versions.mine.text + "\n" + versions.theirs.text
        }
        return TextMerge.merge(
            base: base.text, ours: versions.mine.text, theirs: versions.theirs.text, oursLabel: versions.mine.label,
            theirsLabel: versions.theirs.label
        ).text
    }
}
