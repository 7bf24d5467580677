import Foundation
import NotesCore

/// The search text of a large fetched group (a new device's first sync), made off the writer's
/// thread (issue 27, D-231): where the engine reads the group, while the group before it is
/// applied (`NoteStore.prepareFetched`), else on a thread of its own while the writer stores the
/// group's revisions. It holds the text of each revision that is the only one, and the first,
/// its record has in the group (the note it makes when the record is new here), and those
/// notes' segment sorted ahead in the group's order. The writer indexes new records in that
/// order, so a group of new notes takes its keys and its segment from here; any other note is
/// indexed as before (`SearchIndex.update` makes its text, and a segment that is not this one
/// is sorted when sealed: `SegmentSort.Ahead`). Texts are by revision id, a pure function of
/// the revision, so a value made for more revisions, or others, is used only where it fits.
struct FetchedText: Sendable {
    /// Groups of this many revisions or more are prepared ahead.
    static let threshold = 1000

    /// By revision id; none for a note in the trash (it is not indexed).
    let texts: [String: IndexedText]
    let ahead: SegmentSort.Ahead

    /// How many revisions of each record (by lowercased id) `revisions` holds.
    static func counts(_ revisions: [Revision]) -> [String: Int] {
        var perRecord: [String: Int] = [:]
        for revision in revisions { perRecord[revision.recordID.lowercasedString, default: 0] += 1 }
        return perRecord
    }

    /// `perRecord`: `counts(revisions)`.
    init(_ revisions: [Revision], perRecord: [String: Int]) {
        var scratch = KeySet()
        var folder = TextFolding.Folder()
        var texts: [String: IndexedText] = [:]
        var keys: [[UInt32]] = []
        for revision in revisions where revision.parents.isEmpty {
            guard perRecord[revision.recordID.lowercasedString] == 1, let fields = revision.fields else { continue }
            let note = fields.note(id: revision.recordID, headRev: revision.id, syncState: .synced)
            guard !note.isTrashed else { continue }
            let text = IndexedText(
                title: note.title, body: note.body, tags: note.tags, scratch: &scratch, folder: &folder)
            texts[revision.id] = text
            keys.append(text.keys)
        }
        self.texts = texts
        ahead = SegmentSort.Ahead(keys: keys)
    }
}
