/// One ListObjectsV2 without a delimiter over a prefix, `start-after` a relative path: what an
/// incremental fetch asks of a bucket (SYNC-FORMAT "On S3").
extension S3FileIO: KeyListingFileIO {
    /// Results are filtered by `startAfter` and sorted in byte order here, so a server listing in
    /// another order (SeaweedFS lists directory-tree order: `z/notes/…` before `z/notes-2/…`),
    /// repeating keys, or ignoring `start-after` gives the same answer.
    public func listFiles(under path: String, startAfter: String) throws -> [String] {
        let base = key(path)
        let listPrefix = base.isEmpty ? "" : base + "/"
        var found = Set<String>()
        var token: String?
        var pages = 0
        repeat {
            var query = [("list-type", "2"), ("prefix", listPrefix)]
            if !startAfter.isEmpty { query.append(("start-after", listPrefix + startAfter)) }
            if let token { query.append(("continuation-token", token)) }
            let response = try client.send("GET", key: "", query: query, countAs: "LIST")
            guard response.status == 200 else {
                throw response.cloudError(operation: "list", key: listPrefix, bucket: client.endpoint.bucket)
            }
            guard let page = S3XML.listPage(response.body) else {
                throw CloudError(.networkFailure, "the S3 server sent a listing that is not one", path: path)
            }
            for key in page.keys where key.hasPrefix(listPrefix) {
                let name = String(key.dropFirst(listPrefix.count))
                // Folder markers (`…/`) are not files.
                if !name.isEmpty, !name.hasSuffix("/"), String.byteOrder(startAfter, name) { found.insert(name) }
            }
            token = page.isTruncated ? page.nextContinuationToken : nil
            pages += 1
            if page.isTruncated && token == nil {
                throw CloudError(
                    .networkFailure, "the S3 listing is truncated without a continuation token", path: path)
            }
        } while token != nil && pages < 100_000
        return found.sorted(by: String.byteOrder)
    }
}
