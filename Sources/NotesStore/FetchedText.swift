import Foundation
import NotesCore

/// The search text of a large fetched group (a new device's first sync), made on another
/// thread while the writer stores the group's revisions (issue 27): the text of each revision
/// that is the only one, and the first, its record has in the group (the note it makes when
/// the record is new here), and those notes' segment sorted ahead in the group's order. The
/// writer indexes new records in that order, so a group of new notes takes its keys and its
/// segment from here; any other note is indexed as before (`SearchIndex.update` makes its
/// text, and a segment that is not this one is sorted when sealed: `SegmentSort.Ahead`).
struct FetchedText: Sendable {
    /// Groups of this many revisions or more are prepared ahead.
    static let threshold = 1000

    /// By revision id; none for a note in the trash (it is not indexed).
    let texts: [String: IndexedText]
    let ahead: SegmentSort.Ahead

    /// `perRecord`: how many revisions of each record (lowercased id) the group holds.
    init(_ revisions: [Revision], perRecord: [String: Int]) {
        var scratch = KeySet()
        var texts: [String: IndexedText] = [:]
        var keys: [[UInt32]] = []
        for revision in revisions where revision.parents.isEmpty {
            guard perRecord[revision.recordID.lowercasedString] == 1, let fields = revision.fields else { continue }
            let note = fields.note(id: revision.recordID, headRev: revision.id, syncState: .synced)
            guard !note.isTrashed else { continue }
            let text = IndexedText(title: note.title, body: note.body, tags: note.tags, scratch: &scratch)
            texts[revision.id] = text
            keys.append(text.keys)
        }
        self.texts = texts
        ahead = SegmentSort.Ahead(keys: keys)
    }
}
