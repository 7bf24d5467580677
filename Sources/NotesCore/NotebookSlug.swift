import Foundation

/// Notebook ids made from folder paths, for imports of a folder tree (a notes vault): a
/// notebook id is a zone id, `[a-z0-9-]{1,64}` (SYNC-FORMAT, Layout), so `Work/Projects 2025`
/// becomes `work-projects-2025`. The store has no place for a display name: the slug is all
/// that is kept.
public enum NotebookSlug {
    /// The slug of a folder path (components separated by `/`): folded (`Café` → `cafe`),
    /// every run of other characters one `-`, at most 64 characters. A path with no letter or
    /// digit a-z, 0-9 (`日記`) or one cut at 64 gets a hash of the whole path, so that it stays
    /// distinct from its neighbours and the same on every import.
    public static func slug(ofFolderPath path: String) -> String {
        var out = ""
        for scalar in TextFolding.fold(path).unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else if !out.isEmpty, out.last != "-" {
                out.append("-")
            }
        }
        while out.last == "-" { out.removeLast() }
        if out.isEmpty { return "folder-" + hash(path) }
        // A shared notebook's zone id is never made from a name (SYNC-FORMAT "Notes in a shared place").
        if isSharedZone(out) { return "notebook-" + out }
        if out.count > 64 { return withSuffix(out, hash(path)) }
        return out
    }

    /// The zone id of a shared place's notebook: `s-` and the share id, a lowercase UUID.
    public static func sharedZone(share: String) -> String { "s-" + share }

    /// Whether `zone` is a shared place's notebook (`sharedZone(share:)`): it syncs through its
    /// place, never through the private cloud folder.
    public static func isSharedZone(_ zone: String) -> Bool {
        guard zone.hasPrefix("s-"), zone.utf8.count == 38 else { return false }
        let id = String(zone.dropFirst(2))
        return UUID(uuidString: id).map { $0.uuidString.lowercased() == id } ?? false
    }

    /// A GLOB that matches every shared zone id (and, in SQL, a few that are not: harmless, since
    /// no notebook name makes one, see `slug`).
    public static let sharedZoneGlob = "s-????????-????-????-????-????????????"

    /// `slug` with `-suffix`, cut so that the whole is at most 64 characters.
    public static func withSuffix(_ slug: String, _ suffix: String) -> String {
        var base = String(slug.prefix(64 - suffix.count - 1))
        while base.last == "-" { base.removeLast() }
        return base.isEmpty ? suffix : base + "-" + suffix
    }

    /// Eight hex digits of FNV-1a over the path's UTF-8: stable across runs and machines.
    public static func hash(_ path: String) -> String {
        var h: UInt32 = 0x811C_9DC5
        for byte in path.utf8 { h = (h ^ UInt32(byte)) &* 0x0100_0193 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Slugs for several folder paths, each distinct: in sorted order, a path whose slug is
    /// taken by another path gets its hash as a suffix (`work` and `Work` → `work`,
    /// `work-1a2b3c4d`). The same set of paths always gets the same slugs.
    public static func slugs(ofFolderPaths paths: [String]) -> [String: String] {
        var result: [String: String] = [:]
        var taken: Set<String> = []
        for path in Set(paths).sorted() {
            var slug = slug(ofFolderPath: path)
            if taken.contains(slug) { slug = withSuffix(slug, hash(path)) }
            var n = 2
            while taken.contains(slug) {
                slug = withSuffix(slug, hash(path + "/\(n)"))
                n += 1
            }
            taken.insert(slug)
            result[path] = slug
        }
        return result
    }
}
