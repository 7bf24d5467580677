import CloudFolder
import Foundation
import NotesCore
import NotesPublish
import NotesStore

/// Writes a `PublishedSite` into an S3 bucket under a prefix (`publish … s3://BUCKET/PREFIX`),
/// the same files `PublishWriter` writes into a folder, each one PUT with its content type.
///
/// Only files whose SHA-256 differs from the one the last publish recorded in its manifest
/// (`PublishManifest.hashes`) are uploaded (comparing with the objects would mean downloading
/// them), and files whose object is gone or has another ETag than the one the upload was given
/// (changed by other means: one listing tells), then the objects of the last publish that the
/// site no longer has are deleted. As in a
/// folder, the manifest names what is ours: a prefix holding other objects and no manifest is
/// refused, a new file never replaces an object publish did not write, and the manifest is
/// first rewritten as the union of the old and new files (with the old hashes), so a publish
/// stopped part-way leaves a prefix the next one finishes.
struct PublishBucketWriter: SiteWriter {
    var io: S3FileIO
    /// The prefix as a path of `io` (`/PREFIX`; `CloudLocation.root`).
    var root: String
    /// `s3://BUCKET/PREFIX`, for messages.
    var name: String
    var store: NoteStore

    /// What the last publish left under the prefix.
    struct Previous {
        /// Its manifest; nil for an empty prefix.
        var manifest: PublishManifest?
        /// Every object under the prefix, with its ETag, as one listing found them.
        var etags: [String: String]
    }

    /// The path of `io` of a file of the site.
    func at(_ path: String) -> String { root + "/" + path }

    /// Writes `site` over the site `before` (`previous()`) describes.
    func write(_ site: PublishedSite, previous before: Previous) throws -> PublishWriter.Result {
        try said { try write(site, before) }
    }

    private func write(_ site: PublishedSite, _ before: Previous) throws -> PublishWriter.Result {
        let previous = before.manifest
        let ours = Set(previous?.files ?? [])
        let uploaded = previous?.hashes ?? [:]
        var hashes: [String: String] = [:]
        for file in site.files { hashes[file.path] = Self.sha256(file) ?? uploaded[file.path] }
        for file in site.files where !ours.contains(file.path) {
            guard before.etags[file.path] == nil else {
                throw CLIError("\(name)/\(file.path) exists and publish did not write it; remove it first")
            }
        }
        let union = PublishManifest(
            files: Array(ours.union(hashes.keys)), hashes: uploaded.filter { ours.contains($0.key) })
        if union != previous { try put(Array(union.encoded()), PublishManifest.fileName) }
        var result = PublishWriter.Result()
        var etags: [String: String] = [:]
        for file in site.files {
            if uploaded[file.path] == hashes[file.path], intact(file.path, before) {
                etags[file.path] = before.etags[file.path]
                result.unchanged += 1
                continue
            }
            etags[file.path] = try upload(file)
            result.written += 1
        }
        for gone in previous?.removed(by: site) ?? [] {
            try io.remove(at(gone))
            result.removed += 1
        }
        let current = PublishManifest(
            files: site.files.map(\.path), hashes: hashes, fingerprints: site.fingerprints, etags: etags)
        if current != union { try put(Array(current.encoded()), PublishManifest.fileName) }
        return result
    }

    /// The fingerprints of the pages the last publish uploaded: those a publish need not render
    /// again while their inputs stay (`SiteBuilder.site`'s `unchanged`).
    func reusable(_ before: Previous) -> [String: String] {
        (before.manifest?.fingerprints ?? [:]).filter {
            before.manifest?.hashes?[$0.key] != nil && intact($0.key, before)
        }
    }

    /// Whether the object at `path` is the one the last publish uploaded: there, with the ETag it
    /// was given (a manifest of a build before 0.24 recorded none: there is all it can tell).
    func intact(_ path: String, _ before: Previous) -> Bool {
        guard let now = before.etags[path] else { return false }
        guard let then = before.manifest?.etags?[path] else { return true }
        return now == then && !now.isEmpty
    }

    /// The objects under the prefix and the manifest of the publish that wrote them. A prefix
    /// with other objects and no manifest is refused.
    func previous() throws -> Previous {
        try said {
            let etags = try io.listETags(under: root)
            let bytes: [UInt8]
            do {
                bytes = try io.read(at(PublishManifest.fileName), maxBytes: 256 << 20)
            } catch let error as CloudError where error.code == .unknownItem {
                guard etags.isEmpty else {
                    throw CLIError("\(name) holds objects that publish did not write; give an empty or new prefix")
                }
                return Previous(manifest: nil, etags: etags)
            }
            guard let manifest = PublishManifest.decode(Data(bytes)) else {
                throw CLIError(
                    "\(name)/\(PublishManifest.fileName) is not a list publish wrote; remove it or pick another prefix")
            }
            return Previous(manifest: manifest, etags: etags)
        }
    }

    /// `body`, with the bucket's errors said as one line naming the bucket.
    private func said<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CloudError {
            throw CLIError("cannot publish to \(name): \(CloudError.userMessage(error))")
        }
    }

    /// Uploads `bytes` to `path`; the ETag the bucket gave it.
    @discardableResult
    func put(_ bytes: [UInt8], _ path: String) throws -> String {
        let key = io.key(at(path))
        let response = try io.client.send(
            "PUT", key: key, headers: [("Content-Type", Self.contentType(path))], body: bytes)
        guard (200..<300).contains(response.status) else {
            throw response.cloudError(operation: "put", key: key, bucket: io.client.endpoint.bucket)
        }
        return S3FileIO.unquoted(response.headers["etag"] ?? "")
    }

    /// The size of each part of an attachment uploaded in parts: one part in memory at a time.
    static let partBytes = 8 << 20

    /// Uploads a file; the ETag the bucket gave it. An attachment over one part goes up in parts
    /// read from the store one at a time (a 200 MB attachment is never in memory whole).
    func upload(_ file: PublishedSite.File) throws -> String {
        guard case .attachment(let sha256, let size) = file.content, size > Self.partBytes else {
            return try put(try bytes(of: file), file.path)
        }
        return try io.client.uploadInParts(
            key: io.key(at(file.path)), headers: [("Content-Type", Self.contentType(file.path))]
        ) { part in
            guard try store.readAttachmentContent(sha256: sha256, chunkSize: Self.partBytes, part) else {
                throw CLIError("the content of \(file.path) is not on this device")
            }
        }
    }

    /// A file's bytes: a page's, or an attachment's content read from the store.
    func bytes(of file: PublishedSite.File) throws -> [UInt8] {
        switch file.content {
        case .bytes(let bytes): return bytes
        case .attachment(let sha256, let size):
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Int(clamping: size))
            let found = try store.readAttachmentContent(sha256: sha256, chunkSize: 1 << 20) { bytes += $0 }
            guard found else { throw CLIError("the content of \(file.path) is not on this device") }
            return bytes
        case .kept:
            // Its hash is the one uploaded, so it is never uploaded again.
            throw CLIError("\(name)/\(file.path) was to be kept as it is")
        }
    }

    /// The SHA-256 of a file's content; nil for a page kept as it is (its hash is the one uploaded).
    static func sha256(_ file: PublishedSite.File) -> String? {
        switch file.content {
        case .bytes(let bytes):
            var hash = ContentHasher()
            hash.update(bytes)
            return hash.finalize()
        case .attachment(let sha256, _): return sha256
        case .kept: return nil
        }
    }

    /// What a browser is told the object is, by its extension (a bucket served as a web site
    /// sends this header).
    static func contentType(_ path: String) -> String {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "txt", "md": "text/plain; charset=utf-8"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "svg": "image/svg+xml"
        case "webp": "image/webp"
        case "pdf": "application/pdf"
        default: "application/octet-stream"
        }
    }
}
