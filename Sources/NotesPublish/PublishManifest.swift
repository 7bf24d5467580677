import Foundation

/// The list of files a publish wrote, kept in the site's folder (`.cloudnotes-publish.json`):
/// the next publish removes the ones no longer in the site, and never touches a file it does
/// not name (DECISIONS D-161).
public struct PublishManifest: Codable, Sendable, Equatable {
    /// The manifest's file name in the site's folder.
    public static let fileName = ".cloudnotes-publish.json"

    /// Always 1 for now; a manifest with another version is refused, never guessed at.
    public var version: Int
    /// Paths under the site's folder, sorted.
    public var files: [String]
    /// Path → lowercase hex SHA-256 of the bytes uploaded there, for a site in a bucket, where
    /// comparing with what is there would mean downloading it; nil in a folder.
    public var hashes: [String: String]?
    /// Page path → the fingerprint of what the page was made from (`SiteBuilder.fingerprint`):
    /// the next publish renders again only the pages whose fingerprint changed.
    public var fingerprints: [String: String]?
    /// Path → the ETag the bucket gave the object publish uploaded there (nil in a folder, and
    /// from builds before 0.24): an object whose listed ETag is another was changed or replaced
    /// by other means, and is uploaded again.
    public var etags: [String: String]?

    public init(
        files: [String], hashes: [String: String]? = nil, fingerprints: [String: String]? = nil,
        etags: [String: String]? = nil
    ) {
        version = 1
        self.files = files.sorted()
        self.hashes = hashes
        self.fingerprints = fingerprints
        self.etags = etags
    }

    /// The manifest in `data`, or nil when it is not one (then the folder is not a site this
    /// command wrote).
    public static func decode(_ data: Data) -> PublishManifest? {
        guard let manifest = try? JSONDecoder().decode(PublishManifest.self, from: data), manifest.version == 1,
            manifest.files.allSatisfy(isSafePath)
        else { return nil }
        return manifest
    }

    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        // An Int and an array of strings always encode.
        return ((try? encoder.encode(self)) ?? Data()) + Data("\n".utf8)
    }

    /// The files of this manifest that `site` no longer has: what a publish removes.
    public func removed(by site: PublishedSite) -> [String] {
        let kept = Set(site.files.map(\.path))
        return files.filter { !kept.contains($0) }
    }

    /// A relative path that stays inside the folder: no empty, `.` or `..` part, not absolute.
    /// A manifest edited by hand to name `../x` is refused, so a publish deletes only inside.
    public static func isSafePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != "." && $0 != ".."
        }
    }
}
