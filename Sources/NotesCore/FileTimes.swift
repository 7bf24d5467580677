import Foundation

/// A file's modification time from one lstat(2). FileManager's `attributesOfItem` reads the same
/// time but builds every attribute with it, the owner's and group's names looked up in the user
/// database included: a twentieth of a Markdown folder's import, file by file.
public enum FileTimes {
    /// The modification time of `path` (of a symbolic link itself, not of what it names), as
    /// `attributesOfItem` gives it (`FileTimesTests` compares them); nil when it cannot be examined.
    public static func modified(_ path: String) -> Date? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        // Summed as swift-foundation sums them (from the reference date): the same Date to the bit.
        return Date(
            timeIntervalSinceReferenceDate: TimeInterval(info.st_mtim.tv_sec)
                - Date.timeIntervalBetween1970AndReferenceDate
                + TimeInterval(info.st_mtim.tv_nsec) / 1_000_000_000)
    }
}
