import Foundation
import GRDB
import NotesCore

/// What a saved search matches, and what changed in it since a person last looked (issue 25,
/// subscriptions): `cloudnotes view watch` compares two looks, and the app's status bar counts
/// the changes to each view marked to notify since it was last shown. The last look of each
/// marked view is this device's own (`sync_state` key `viewSeen.<name>`), never synced.
extension NoteStore {
    /// Every note `query` matches now, with the signature of what a person would notice
    /// changing (text, title, tags, notebook, favorite).
    public func viewMatches(_ query: SearchQuery) throws -> [UUID: ViewMatch] {
        let page = try search(query, limit: Int(Int32.max))
        var found: [UUID: ViewMatch] = [:]
        for hit in page.hits {
            let note = hit.note
            let signature = [
                String(note.modifiedAt.millisecondsSince1970), note.title, note.zone,
                note.tags.joined(separator: "\u{1F}"),
                note.isFavorite ? "★" : "", String(note.bodyLength), note.preview,
            ].joined(separator: "\u{1E}")
            found[note.id] = ViewMatch(id: note.id, title: note.title, signature: signature)
        }
        return found
    }

    /// For each saved search marked to notify, how many notes started or stopped matching it,
    /// or changed while matching, since it was last shown. The one whose query is `shownQuery`
    /// (the app's list shows it now), and one looked at for the first time, count nothing: what
    /// they match now becomes their last look.
    public func viewChangeCounts(shownQuery: String?) throws -> [(name: String, query: String, count: Int)] {
        var counts: [(name: String, query: String, count: Int)] = []
        for view in try settingsState().notifyingViews {
            // A view whose query no longer runs (its notebook was deleted) counts nothing.
            guard let now = try? viewMatches(SearchQuery(parsing: view.query)) else { continue }
            let key = Self.viewSeenPrefix + view.name
            let seen = try read { db in try Self.syncValue(key, db) }.flatMap(Self.decodedLook)
            if let seen, view.query != shownQuery {
                counts.append((view.name, view.query, ViewChange.between(seen, now).count))
            } else {
                try write { db in try Self.setSyncValue(key, Self.encodedLook(now), db) }
                counts.append((view.name, view.query, 0))
            }
        }
        return counts
    }

    static let viewSeenPrefix = "viewSeen."

    /// A look as JSON: `{"<id>": [title, signature]}`.
    static func encodedLook(_ matches: [UUID: ViewMatch]) -> String {
        var object: [String: [String]] = [:]
        for (id, match) in matches { object[id.lowercasedString] = [match.title, match.signature] }
        // Encoding a dictionary of strings has no failure mode; "{}" would only restart the count.
        let data = (try? JSONEncoder().encode(object)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A look read back; nil (looked at afresh) when it does not decode.
    static func decodedLook(_ text: String) -> [UUID: ViewMatch]? {
        // A look that does not decode is taken afresh: the count starts again, no note is touched.
        guard let object = try? JSONDecoder().decode([String: [String]].self, from: Data(text.utf8)) else { return nil }
        var matches: [UUID: ViewMatch] = [:]
        for (key, fields) in object {
            guard let id = UUID(uuidString: key), fields.count == 2 else { continue }
            matches[id] = ViewMatch(id: id, title: fields[0], signature: fields[1])
        }
        return matches
    }
}
