import CloudFolder
import Foundation
import NotesCore
import NotesStore

/// The shared places this data directory has joined or created, and for each the membership
/// checkpoint it has checked (SYNC-FORMAT rule 18: a log is never followed back):
/// `shares.json` in the data directory, 0600.
struct ShareBook {
    struct Place: Equatable {
        var place: String
        var share: String
        var checkpoint: ShareCheckpoint
    }

    var places: [Place] = []

    static func url(_ store: NoteStore) -> URL { store.directory.appendingPathComponent("shares.json") }

    static func read(_ store: NoteStore) throws -> ShareBook {
        guard let data = FileManager.default.contents(atPath: url(store).path) else { return ShareBook() }
        do {
            guard let list = try JSONValue(parsing: data)["places"]?.arrayValue else { throw ShareBookDamaged() }
            var book = ShareBook()
            for item in list {
                guard let place = item["place"]?.stringValue, let share = item["share"]?.stringValue,
                    let checkpoint = item["checkpoint"]
                else { throw ShareBookDamaged() }
                book.places.append(Place(place: place, share: share, checkpoint: try ShareCheckpoint(json: checkpoint)))
            }
            return book
        } catch {
            throw CLIError(
                "\(url(store).path) is damaged; it remembers which membership entries of your shares were checked: "
                    + "restore it from a backup, or remove it to check each share again from its first entry")
        }
    }

    func write(_ store: NoteStore) throws {
        let list: [JSONValue] = places.map {
            .object(["checkpoint": $0.checkpoint.json, "place": .string($0.place), "share": .string($0.share)])
        }
        try PrivateFile.write(JSONValue.object(["places": .array(list)]).canonicalBytes + [0x0A], to: Self.url(store))
    }

    func checkpoint(for place: String) -> ShareCheckpoint? { places.first { $0.place == place }?.checkpoint }

    /// Remembers `state` as checked at `place` (it extends what was remembered: `read(after:)`
    /// refused anything else).
    mutating func remember(_ state: ShareState, at place: String) {
        let entry = Place(place: place, share: state.share, checkpoint: state.log.checkpoint)
        if let index = places.firstIndex(where: { $0.place == place }) {
            places[index] = entry
        } else {
            places.append(entry)
        }
    }

    mutating func forget(_ place: String) { places.removeAll { $0.place == place } }
}

private struct ShareBookDamaged: Error {}
