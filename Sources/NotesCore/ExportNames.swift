import Foundation

/// File names of a Markdown export: a folder per notebook, a file per note named after its
/// title, made safe and unique (case-insensitively, for the file systems that fold case).
/// The same notes always get the same names: in each folder the notes are taken by creation
/// date and id, and a title already taken gets the start of the note's id.
public enum ExportNames {
    /// At most this many UTF-8 bytes before `.md` (file names are at most 255 bytes).
    public static let maxStemBytes = 120

    /// The title as a file name: path separators and characters Windows and macOS refuse
    /// become `-`, line breaks and other controls spaces; no leading or trailing dots or
    /// spaces (a leading dot would hide the file, and import skips hidden files); cut at a
    /// character boundary; `Untitled` when nothing is left.
    public static func safe(_ title: String) -> String {
        // Most titles need nothing done: a folder pass names every note (100k at 100,000 notes).
        isSafeAsIs(title) ? title : madeSafe(title)
    }

    /// `safe`'s answer worked out character by character (for every title, in the tests).
    static func madeSafe(_ title: String) -> String {
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

    /// Whether `safe` would return `title` unchanged: not empty, short enough, nothing to trim
    /// at either end, no character to replace.
    private static func isSafeAsIs(_ title: String) -> Bool {
        guard title.utf8.count <= maxStemBytes, let first = title.unicodeScalars.first,
            let last = title.unicodeScalars.last, !isTrimmed(first), !isTrimmed(last)
        else { return false }
        for scalar in title.unicodeScalars {
            switch scalar {
            case "/", "\\", ":", "*", "?", "\"", "<", ">", "|": return false
            default: if isControl(scalar) { return false }
            }
        }
        return true
    }

    private static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "." || CharacterSet.whitespaces.contains(scalar)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
            || scalar == "\u{FEFF}"
    }

    /// The folder of each notebook (zone → folder path): its display name made safe, unique
    /// case-insensitively, a name with `/` as nested folders (`Work/Projects`). Zones are taken in order; a name already taken (two notebooks named
    /// "Work", or "a/b" beside "a-b") gets the zone id in brackets, so the same notebooks always
    /// get the same folders. Import reads a note's notebook from its front matter, not from the
    /// folder.
    public static func folders(_ names: [String: String]) -> [String: String] {
        var folders: [String: String] = [:]
        var taken: Set<String> = []
        for zone in names.keys.sorted() {
            // `Work/Projects` is the folder `Projects` in `Work`, as import names it back.
            let stem = (names[zone] ?? zone).split(separator: "/", omittingEmptySubsequences: false)
                .map { safe(String($0)) }.joined(separator: "/")
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
    public static func paths(_ notes: [Note], folders: [String: String] = [:]) -> [String] {
        var paths = [String](repeating: "", count: notes.count)
        // The ids as text once, not at each comparison (10k notes: 280k conversions otherwise).
        let ids = notes.map(\.idString)
        let order = notes.indices.sorted {
            let a = notes[$0]
            let b = notes[$1]
            return (a.zone, a.createdAt, ids[$0]) < (b.zone, b.createdAt, ids[$1])
        }
        // A note is never named like the folder of a notebook nested in its own (`Work/Projects.md`
        // beside `Work/Projects/`): its attachment folder would be that notebook's.
        var taken: [String: Set<String>] = [:]
        let zoneOfFolder = Dictionary(folders.map { ($1.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        for folder in folders.values {
            guard let slash = folder.lastIndex(of: "/"), let parent = zoneOfFolder[folder[..<slash].lowercased()]
            else { continue }
            taken[parent, default: []].insert(folder[folder.index(after: slash)...].lowercased())
        }
        for index in order {
            let note = notes[index]
            var stem = safe(note.title)
            if taken[note.zone, default: []].contains(stem.lowercased()) {
                stem += " (" + ids[index].prefix(8) + ")"
                if taken[note.zone, default: []].contains(stem.lowercased()) { stem = ids[index] }
            }
            taken[note.zone, default: []].insert(stem.lowercased())
            paths[index] = (folders[note.zone] ?? note.zone) + "/" + stem + ".md"
        }
        return paths
    }

    /// At most this many UTF-8 bytes in an attachment's file name: room for the temporary name
    /// of its atomic write (`.<name>.tmp-<pid>`) within the 255 bytes a file name may have.
    public static let maxAttachmentFileBytes = 200

    /// The file of each attachment in its note's folder, in the order of `attachments`: its
    /// name, or for a name over `maxAttachmentFileBytes` its start, `~`, eight hex digits of a
    /// hash of the whole name, and its extension (`…very long name~1a2b3c4d.pdf`). The original
    /// name goes into the front matter and import restores it. Names are unique in a note, and
    /// so are the files (a short name is never changed; a long one that meets a taken file gets
    /// another hash).
    public static func attachmentFiles(_ attachments: [Attachment]) -> [MarkdownNote.AttachmentFile] {
        var taken = Set(
            attachments.map(\.name).filter { $0.utf8.count <= maxAttachmentFileBytes }.map { Array($0.utf8) })
        return attachments.map { attachment in
            let name = attachment.name
            guard name.utf8.count > maxAttachmentFileBytes else {
                return MarkdownNote.AttachmentFile(name: name, file: name)
            }
            var ext = ""
            if let dot = name.lastIndex(of: "."), dot != name.startIndex, name[dot...].utf8.count <= 16 {
                ext = String(name[dot...])
            }
            var file = ""
            var n = 1
            repeat {
                let mark = "~" + NotebookSlug.hash(n == 1 ? name : name + "/\(n)")
                var stem = ""
                for character in name.dropLast(ext.count) {
                    if stem.utf8.count + character.utf8.count + mark.utf8.count + ext.utf8.count
                        > maxAttachmentFileBytes
                    {
                        break
                    }
                    stem.append(character)
                }
                file = stem + mark + ext
                n += 1
            } while taken.contains(Array(file.utf8))
            taken.insert(Array(file.utf8))
            return MarkdownNote.AttachmentFile(name: name, file: file)
        }
    }
}
