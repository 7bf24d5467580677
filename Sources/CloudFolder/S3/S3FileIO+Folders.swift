/// Folders on a bucket (SYNC-FORMAT "On S3"): a folder is there when some object is under its
/// prefix, and nothing else makes one. A check of a folder is one LIST, creating one costs
/// nothing, and a write-once PUT says by itself whether the key was taken; nothing is cached, so
/// a zone another device deleted is seen at the next check.
extension S3FileIO {
    /// One ListObjectsV2 of `path`'s prefix without a delimiter, at most one key: a folder entry
    /// some servers keep once every key under it is gone (SeaweedFS) is no folder, as on S3.
    public func isFolder(_ path: String) throws -> Bool {
        let target = key(path)
        if target.isEmpty { return true }
        let query = [("list-type", "2"), ("prefix", target + "/"), ("max-keys", "1")]
        let response = try client.send("GET", key: "", query: query, countAs: "LIST")
        guard response.status == 200 else {
            throw response.cloudError(operation: "list", key: target + "/", bucket: client.endpoint.bucket)
        }
        guard let page = S3XML.listPage(response.body) else {
            throw CloudError(.networkFailure, "the S3 server sent a listing that is not one", path: path)
        }
        return !page.keys.isEmpty
    }

    /// One HEAD: the format's file paths are never folders, so no folder is looked for.
    public func fileExists(_ path: String) throws -> Bool {
        key(path).isEmpty ? true : try objectSize(path) != nil
    }

    /// Nothing to do: a key under the folder's prefix is what makes it, and every caller writes
    /// one next. (No marker object is written; markers written by earlier builds still count.)
    public func ensureDirectory(_ path: String, syncExisting: Bool) throws {}

    /// Every path but the device file is written with `If-None-Match: *` (`rename`).
    public func renameRefusesExisting(_ path: String) -> Bool { !CloudLayout.isRewritable(path) }
}
