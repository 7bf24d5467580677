import NotesCore

/// A note's folded title and its index keys (title keys in `SearchKeys.titleSpace`, title,
/// body and tag keys in the main space), computed once, possibly off the writer's thread
/// (`NoteStore.importNotes` prepares a batch while the previous one is written).
///
/// The folded body is not kept: a search folds the bodies it checks as it reads them
/// (`foldedBody`), and the folded title is the note row's `sortTitle` (D-228).
struct IndexedText: Sendable {
    let title: [UInt8]
    let keys: [UInt32]

    /// The folded title as a string (the note's sort title too).
    var foldedTitle: String { String(decoding: title, as: UTF8.self) }

    /// - Parameter folder: folds the title and then the body and tags, note after note (it
    ///   learns each scalar's fold once; a folder per note looked up each note's scalars in the
    ///   process-wide memo, under its lock: a third of the fold of a new device's first sync).
    init(title: String, body: String, tags: [String], scratch: inout KeySet, folder: inout TextFolding.Folder) {
        var title = title
        var body = body
        // A String's bytes always fold (they are UTF-8).
        let folded = title.withUTF8 { folder.fold($0) } ? folder.bytes : TextFolding.foldedUTF8(title)
        scratch.removeAll()
        folded.withUnsafeBufferPointer { bytes in
            SearchKeys.collect(bytes, space: SearchKeys.titleSpace, into: &scratch)
            SearchKeys.collect(bytes, space: 0, into: &scratch)
        }
        _ = body.withUTF8 { folder.fold($0) }
        Self.appendTags(tags, to: &folder)
        folder.withFolded { SearchKeys.collect($0, space: 0, into: &scratch) }
        self.title = folded
        self.keys = Array(scratch.keys)
    }

    /// The text a search checks a note's terms in besides its title, and whose keys the index
    /// holds: the folded body, then U+FFFF and the folded tags (one per line) when there are tags.
    static func foldedBody(_ body: String, tags: [String]) -> [UInt8] {
        var folder = TextFolding.Folder(tableAfter: .max)
        var body = body
        _ = body.withUTF8 { folder.fold($0) }
        appendTags(tags, to: &folder)
        return folder.takeBytes()
    }

    /// Appends what follows a folded body in `foldedBody`: U+FFFF and the folded tags, one per
    /// line; nothing when there are none.
    static func appendTags(_ tags: [String], to folder: inout TextFolding.Folder) {
        guard !tags.isEmpty else { return }
        folder.appendVerbatim(SearchIndex.sentinel.utf8)
        var joined = tags.joined(separator: "\n")
        _ = joined.withUTF8 { folder.append($0) }
    }

    /// `appendTags` of the tags stored as `json` (the note row's `tags`), read from its bytes
    /// when it is `[]` or a plain array (`NoteStore.plainTagRanges`): the fold is per scalar, so
    /// each tag folded in turn with a line feed between is the fold of them joined. False, with
    /// nothing appended, for any other text, or bytes that are not UTF-8.
    static func appendTags(json: UnsafeBufferPointer<UInt8>, to folder: inout TextFolding.Folder) -> Bool {
        if json.elementsEqual("[]".utf8) { return true }
        guard let ranges = NoteStore.plainTagRanges(json) else { return false }
        let mark = folder.count
        folder.appendVerbatim(SearchIndex.sentinel.utf8)
        for (index, range) in ranges.enumerated() {
            if index > 0 { folder.appendVerbatim(CollectionOfOne(UInt8(ascii: "\n"))) }
            guard folder.append(UnsafeBufferPointer(rebasing: json[range])) else {
                folder.truncate(to: mark)
                return false
            }
        }
        return true
    }
}
