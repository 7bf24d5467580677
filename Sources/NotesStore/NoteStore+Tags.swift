import Foundation
import GRDB
import NotesCore

/// Tags across notes (ARCHITECTURE §2).
extension NoteStore {
    /// Every tag of notes outside the trash with how many notes carry it, by tag; with
    /// `bodyHashtags`, `#word`s in bodies count too (a note counts once per tag).
    public func tagCounts(bodyHashtags: Bool) throws -> [(tag: String, count: Int)] {
        guard bodyHashtags else { return try tagCounts() }
        return try read { db in
            var counts: [String: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT tags, body FROM note WHERE deletedAt IS NULL")
            while let row = try rows.next() {
                var tags = Set(Self.decodeTags(row["tags"]))
                let body: String = row["body"]
                if body.contains("#") { tags.formUnion(Hashtags.tags(in: body)) }
                for tag in tags { counts[tag, default: 0] += 1 }
            }
            return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }

    /// Renames a tag on every note that carries it (notes in the trash too), each a normal edit
    /// of the note so the change syncs; in one transaction. Returns how many notes changed.
    @discardableResult
    public func renameTag(_ old: String, to new: String) throws -> Int {
        let new = new.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !new.isEmpty, !new.contains(where: \.isNewline) else {
            throw StoreError(.invalidInput, "a tag needs at least one character on one line")
        }
        return try write { db in
            let ids = try String.fetchAll(
                db, sql: "SELECT noteID FROM note_tag WHERE tag = ? ORDER BY noteID", arguments: [old])
            var changed = 0
            for id in ids.compactMap(UUID.init(uuidString:)) {
                guard let current = try Self.fetchNote(db, id: id),
                    let next = try edited(
                        current,
                        { note in
                            note.tags = note.tags.map { $0 == old ? new : $0 }
                        })
                else { continue }
                _ = try save(next, previous: current, db)
                changed += 1
            }
            return changed
        }
    }
}
