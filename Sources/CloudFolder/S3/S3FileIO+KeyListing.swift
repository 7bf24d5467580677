/// One ListObjectsV2 without a delimiter over a prefix, `start-after` a relative path: what an
/// incremental fetch asks of a bucket (SYNC-FORMAT "On S3").
extension S3FileIO: KeyListingFileIO {
    /// Results are filtered by `startAfter` and sorted in byte order here, so a server listing in
    /// another order (SeaweedFS lists directory-tree order: `z/notes/…` before `z/notes-2/…`),
    /// repeating keys, or ignoring `start-after` gives the same answer.
    public func listFiles(under path: String, startAfter: String) throws -> [String] {
        var found = Set<String>()
        try eachFile(under: path, startAfter: startAfter) { name, _ in found.insert(name) }
        return found.sorted(by: String.byteOrder)
    }

    /// Every object under `path` (relative name) with its ETag, quotes dropped; an object whose
    /// listing gave no ETag is there with an empty one. One ListObjectsV2 per 1,000 objects.
    public func listETags(under path: String) throws -> [String: String] {
        var found: [String: String] = [:]
        try eachFile(under: path, startAfter: "") { name, etag in found[name] = etag }
        return found
    }

    /// Each object under `path` named after `startAfter` (bytewise; "" for all), by its name
    /// relative to `path`, with its ETag ("" when the listing gave none). Folder markers (`…/`)
    /// are not files.
    private func eachFile(under path: String, startAfter: String, _ body: (String, String) -> Void) throws {
        let base = key(path)
        let listPrefix = base.isEmpty ? "" : base + "/"
        try eachListPage(
            prefix: listPrefix, delimiter: nil, startAfter: startAfter.isEmpty ? nil : listPrefix + startAfter,
            path: path
        ) { page in
            for (index, key) in page.keys.enumerated() where key.hasPrefix(listPrefix) {
                let name = String(key.dropFirst(listPrefix.count))
                guard !name.isEmpty, !name.hasSuffix("/"), String.byteOrder(startAfter, name) else { continue }
                body(name, index < page.etags.count ? Self.unquoted(page.etags[index]) : "")
            }
        }
    }

    /// An ETag without the quotes S3 puts around it.
    public static func unquoted(_ etag: String) -> String {
        etag.count >= 2 && etag.hasPrefix("\"") && etag.hasSuffix("\"") ? String(etag.dropFirst().dropLast()) : etag
    }
}
