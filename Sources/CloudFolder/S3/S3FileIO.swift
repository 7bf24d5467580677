import Foundation
import Synchronization

/// A `FileIO` over an S3 bucket, so `DirectoryCloudFolder` keeps the whole format, every rule and
/// encryption unchanged on object storage (SYNC-FORMAT "On S3", DECISIONS session 11).
///
/// A path maps to the object key `prefix/<path>` (its empty components dropped); a folder is a
/// zero-byte marker object `<key>/` or any key under it. Writes are buffered until `rename`, which
/// is one PUT of the final key with `If-None-Match: *` (the write-once primitive, rule 1), except
/// for a device file (`private/devices/*.json`, the one file rewritten), a plain PUT. Nothing is
/// ever written at a temp key, and `fsync`/`fsyncDirectory` have nothing to do: an acknowledged
/// PUT is durable.
public final class S3FileIO: FileIO, Sendable {
    /// The files being written, and those closed and not yet renamed (uploaded) or removed.
    private struct Buffers {
        var open: [Int32: (path: String, bytes: [UInt8])] = [:]
        var closed: [String: [UInt8]] = [:]
        var nextDescriptor: Int32 = 3
    }

    public let client: S3Client
    /// The key prefix every path is under (no leading or trailing slash; may be empty).
    public let prefix: String
    private let buffers = Mutex(Buffers())

    public init(client: S3Client, prefix: String = "") {
        self.client = client
        self.prefix = prefix.split(separator: "/").joined(separator: "/")
    }

    /// Requests sent so far, by method (`LIST` for ListObjectsV2).
    public var requestCounts: [String: Int] { client.requestCounts }

    /// The object key of a path.
    public func key(_ path: String) -> String {
        (prefix.split(separator: "/") + path.split(separator: "/")).joined(separator: "/")
    }

    // MARK: Writes (buffered until rename)

    public func createExclusive(_ path: String) throws -> FileDescriptor {
        buffers.withLock { buffers in
            let fd = buffers.nextDescriptor
            buffers.nextDescriptor += 1
            buffers.open[fd] = (path, [])
            return FileDescriptor(rawValue: fd)
        }
    }

    public func write(_ file: FileDescriptor, _ bytes: [UInt8]) throws {
        try buffers.withLock { buffers throws(CloudError) in
            guard buffers.open[file.rawValue] != nil else {
                throw CloudError(errno: EBADF, operation: "write", path: nil)
            }
            buffers.open[file.rawValue]?.bytes += bytes
        }
    }

    public func fsync(_ file: FileDescriptor) throws {}

    public func close(_ file: FileDescriptor) throws {
        try buffers.withLock { buffers throws(CloudError) in
            guard let handle = buffers.open.removeValue(forKey: file.rawValue) else {
                throw CloudError(errno: EBADF, operation: "close", path: nil)
            }
            buffers.closed[handle.path] = handle.bytes
        }
    }

    public func rename(_ from: String, to: String) throws {
        guard let bytes = buffers.withLock({ $0.closed.removeValue(forKey: from) }) else {
            throw CloudError(errno: ENOENT, operation: "rename", path: from)
        }
        let target = key(to)
        let rewritable = CloudLayout.isRewritable(to)
        do {
            let response = try client.send(
                "PUT", key: target, headers: rewritable ? [] : [("If-None-Match", "*")], body: bytes)
            guard (200..<300).contains(response.status) else {
                throw response.cloudError(operation: "put", key: target, bucket: client.endpoint.bucket)
            }
        } catch {
            // A failed rename leaves the temp file, as on a disk: its removal then costs no request.
            buffers.withLock { $0.closed[from] = bytes }
            throw error
        }
    }

    public func fsyncDirectory(_ path: String) throws {}

    // MARK: Reads

    public func read(_ path: String, maxBytes: Int) throws -> [UInt8] {
        let target = key(path)
        // One byte past the cap, so an object over it is refused without reading it all.
        let last = maxBytes < Int.max ? maxBytes : maxBytes - 1
        let response = try client.send("GET", key: target, headers: [("Range", "bytes=0-\(last)")])
        switch response.status {
        case 200, 206:
            let total = response.headers["content-range"].flatMap { $0.split(separator: "/").last }.flatMap {
                Int64($0)
            }
            let size = total ?? Int64(response.body.count)
            guard size <= maxBytes, response.body.count <= maxBytes else {
                throw CloudError(
                    .limitExceeded, "object is \(size) bytes, over the \(maxBytes)-byte cap; refused", path: path)
            }
            return response.body
        case 416:
            // A range on an empty object.
            return []
        default:
            throw response.cloudError(operation: "get", key: target, bucket: client.endpoint.bucket)
        }
    }

    public func list(_ path: String) throws -> [String] {
        let base = key(path)
        let listPrefix = base.isEmpty ? "" : base + "/"
        var names: [String] = []
        try eachListPage(prefix: listPrefix, delimiter: "/", startAfter: nil, path: path) { page in
            for key in page.keys where key.hasPrefix(listPrefix) {
                let name = String(key.dropFirst(listPrefix.count))
                if !name.isEmpty && !name.contains("/") { names.append(name) }
            }
            for common in page.commonPrefixes where common.hasPrefix(listPrefix) {
                let name = String(common.dropFirst(listPrefix.count).dropLast(common.hasSuffix("/") ? 1 : 0))
                if !name.isEmpty && !name.contains("/") { names.append(name) }
            }
        }
        // A key and a folder of one name appear once.
        return Array(Set(names))
    }

    /// Every page of one ListObjectsV2 over `prefix` (with `delimiter`, from after `startAfter`),
    /// following continuation tokens; a page that is not a listing, or a truncated one without
    /// a token, is an error (`path` names it).
    func eachListPage(
        prefix: String, delimiter: String?, startAfter: String?, path: String, _ body: (S3XML.ListPage) -> Void
    ) throws {
        var token: String?
        var pages = 0
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix)]
            if let delimiter { query.append(("delimiter", delimiter)) }
            if let startAfter { query.append(("start-after", startAfter)) }
            if let token { query.append(("continuation-token", token)) }
            let response = try client.send("GET", key: "", query: query, countAs: "LIST")
            guard response.status == 200 else {
                throw response.cloudError(operation: "list", key: prefix, bucket: client.endpoint.bucket)
            }
            guard let page = S3XML.listPage(response.body) else {
                throw CloudError(.networkFailure, "the S3 server sent a listing that is not one", path: path)
            }
            body(page)
            token = page.isTruncated ? page.nextContinuationToken : nil
            pages += 1
            if page.isTruncated && token == nil {
                throw CloudError(
                    .networkFailure, "the S3 listing is truncated without a continuation token", path: path)
            }
        } while token != nil && pages < 100_000
    }

    public func kind(_ path: String) throws -> FileKind? {
        let target = key(path)
        if target.isEmpty { return .directory }
        if let size = try objectSize(path) { return .regular(size: size) }
        return try isFolder(path) ? .directory : nil
    }

    /// The size of the object at `path`'s key (one HEAD), nil when there is none.
    func objectSize(_ path: String) throws -> Int64? {
        let target = key(path)
        let head = try client.send("HEAD", key: target)
        if (200..<300).contains(head.status) { return head.headers["content-length"].flatMap { Int64($0) } ?? 0 }
        guard head.status == 404 else {
            throw head.cloudError(operation: "head", key: target, bucket: client.endpoint.bucket)
        }
        return nil
    }

    // MARK: Folders and removal

    public func makeDirectory(_ path: String) throws {
        let target = key(path) + "/"
        let response = try client.send("PUT", key: target, headers: [("If-None-Match", "*")])
        guard (200..<300).contains(response.status) else {
            throw response.cloudError(operation: "make folder", key: target, bucket: client.endpoint.bucket)
        }
    }

    public func remove(_ path: String) throws {
        // A temp file was never uploaded: dropping its buffer is the whole removal.
        if buffers.withLock({ $0.closed.removeValue(forKey: path) }) != nil { return }
        let target = key(path)
        let response = try client.send("DELETE", key: target)
        guard (200..<300).contains(response.status) || response.status == 404 else {
            throw response.cloudError(operation: "delete", key: target, bucket: client.endpoint.bucket)
        }
    }
}
