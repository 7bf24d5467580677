import Foundation
import NotesCore

/// File names of a Markdown export: a folder per notebook, a file per note named after its
/// title, made safe and unique (case-insensitively, for the file systems that fold case).
/// The same notes always get the same names: in each folder the notes are taken by creation
/// date and id, and a title already taken gets the start of the note's id.
enum ExportNames {
    /// At most this many UTF-8 bytes before `.md` (file names are at most 255 bytes).
    static let maxStemBytes = 120

    /// The title as a file name: path separators and characters Windows and macOS refuse
    /// become `-`, line breaks and other controls spaces; no leading or trailing dots or
    /// spaces (a leading dot would hide the file, and import skips hidden files); cut at a
    /// character boundary; `Untitled` when nothing is left.
    static func safe(_ title: String) -> String {
        var out = ""
        for character in title {
            if character.unicodeScalars.contains(where: { "/\\:*?\"<>|".unicodeScalars.contains($0) }) {
                out.append("-")
            } else if character.unicodeScalars.contains(where: Self.isControl) {
                out.append(" ")
            } else {
                out.append(character)
            }
        }
        out = out.trimmingCharacters(in: CharacterSet(charactersIn: " .").union(.whitespaces))
        var bytes = 0
        var cut = ""
        for character in out {
            bytes += character.utf8.count
            if bytes > maxStemBytes { break }
            cut.append(character)
        }
        cut = cut.trimmingCharacters(in: CharacterSet(charactersIn: " .").union(.whitespaces))
        return cut.isEmpty ? "Untitled" : cut
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
            || scalar == "\u{FEFF}"
    }

    /// The folder of each notebook (zone → folder name): its display name made safe, unique
    /// case-insensitively. Zones are taken in order; a name already taken (two notebooks named
    /// "Work", or "a/b" beside "a-b") gets the zone id in brackets, so the same notebooks always
    /// get the same folders. Import reads a note's notebook from its front matter, not from the
    /// folder.
    static func folders(_ names: [String: String]) -> [String: String] {
        var folders: [String: String] = [:]
        var taken: Set<String> = []
        for zone in names.keys.sorted() {
            let stem = safe(names[zone] ?? zone)
            var folder = stem
            var n = 1
            while taken.contains(folder.lowercased()) {
                folder = n == 1 ? stem + " (" + zone + ")" : stem + " (" + zone + " \(n))"
                n += 1
            }
            taken.insert(folder.lowercased())
            folders[zone] = folder
        }
        return folders
    }

    /// The relative path of each note's file (`Notebook/Title.md`), in the order of `notes`;
    /// `folders` maps each note's zone to its folder (`folders(_:)`; the zone id when absent).
    static func paths(_ notes: [Note], folders: [String: String] = [:]) -> [String] {
        var paths = [String](repeating: "", count: notes.count)
        let order = notes.indices.sorted {
            let a = notes[$0]
            let b = notes[$1]
            return (a.zone, a.createdAt, a.idString) < (b.zone, b.createdAt, b.idString)
        }
        var taken: [String: Set<String>] = [:]
        for index in order {
            let note = notes[index]
            var stem = safe(note.title)
            if taken[note.zone, default: []].contains(stem.lowercased()) {
                stem += " (" + note.idString.prefix(8) + ")"
                if taken[note.zone, default: []].contains(stem.lowercased()) { stem = note.idString }
            }
            taken[note.zone, default: []].insert(stem.lowercased())
            paths[index] = (folders[note.zone] ?? note.zone) + "/" + stem + ".md"
        }
        return paths
    }
}
