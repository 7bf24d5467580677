import NotesCore

/// A note's folded search text and its index keys (title keys in `SearchKeys.titleSpace`,
/// title, body and tag keys in the main space), computed once, possibly off the writer's
/// thread (`NoteStore.importNotes` prepares a batch while the previous one is written).
struct IndexedText: Sendable {
    let title: [UInt8]
    /// Folded body, then U+FFFF and the folded tags (one per line) when there are tags.
    let body: [UInt8]
    let keys: [UInt32]

    /// The folded title as a string (the note's sort title too).
    var foldedTitle: String { String(decoding: title, as: UTF8.self) }

    init(title: String, body: String, tags: [String], scratch: inout KeySet) {
        let title = TextFolding.foldedUTF8(title)
        var body = TextFolding.foldedUTF8(body)
        if !tags.isEmpty {
            body.append(contentsOf: SearchIndex.sentinel.utf8)
            body.append(contentsOf: TextFolding.foldedUTF8(tags.joined(separator: "\n")))
        }
        scratch.removeAll()
        title.withUnsafeBufferPointer { bytes in
            SearchKeys.collect(bytes, space: SearchKeys.titleSpace, into: &scratch)
            SearchKeys.collect(bytes, space: 0, into: &scratch)
        }
        body.withUnsafeBufferPointer { SearchKeys.collect($0, space: 0, into: &scratch) }
        self.title = title
        self.body = body
        self.keys = Array(scratch.keys)
    }
}
