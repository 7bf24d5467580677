import Foundation

/// A static web site as values: every file `publish` writes, by its path under the site's
/// folder. Pure data, so tests compare it without touching a disk.
public struct PublishedSite: Sendable, Equatable {
    /// One file of the site.
    public struct File: Sendable, Equatable {
        /// Where the bytes come from: made here (a page, the style sheet, the search index), or an
        /// attachment's content, which the writer streams from the store by its SHA-256.
        public enum Content: Sendable, Equatable {
            case bytes([UInt8])
            case attachment(sha256: String, size: Int64)
            /// A page the last publish wrote from the same inputs (`SiteBuilder.site`'s
            /// `unchanged`): not rendered again; the writer leaves what is there.
            case kept
        }

        /// The path under the site's folder, `/`-separated (`notes/groceries-1a2b3c4d.html`).
        public var path: String
        public var content: Content

        public init(path: String, content: Content) {
            self.path = path
            self.content = content
        }
    }

    /// In path order.
    public var files: [File]
    /// Page path → the fingerprint of what it was made from (`SiteBuilder.fingerprint`), which
    /// the manifest records for the next publish.
    public var fingerprints: [String: String]

    public init(files: [File], fingerprints: [String: String] = [:]) {
        self.files = files.sorted { $0.path < $1.path }
        self.fingerprints = fingerprints
    }

    /// The file at `path`, or nil.
    public func file(_ path: String) -> File? { files.first { $0.path == path } }

    /// The text of the file at `path` (nil for an attachment or no such file).
    public func text(_ path: String) -> String? {
        guard case .bytes(let bytes)? = file(path)?.content else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
