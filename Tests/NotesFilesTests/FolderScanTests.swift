import Foundation
import NotesFiles
import NotesTestSupport
import Testing

/// The walk a sweep takes names the notes' attachment folders as it passes over them, so the
/// sweep does not list the folder a second time: checked against `FolderScan.attachmentFolders`
/// (a listing of its own, by the entries' types) over random folders of notebooks, notes,
/// attachment folders, ignored folders and nested notebooks.
@Suite struct FolderScanTests {
    @Test func theWalkNamesTheAttachmentFoldersTheListingOfFoldersFinds() throws {
        let seed = SeededRandom.seed(default: 7)
        var random = SeededRandom(seed: seed)
        let fileManager = FileManager.default
        for round in 0..<40 {
            let root = fileManager.temporaryDirectory.appendingPathComponent("scan-\(UUID().uuidString)").path
            defer { try? fileManager.removeItem(atPath: root) }
            var notes: Set<String> = []
            var folders = [""]
            for index in 0..<(3 + random.below(20)) {
                let parent = folders[random.below(folders.count)]
                let prefix = parent.isEmpty ? "" : parent + "/"
                let name = ["Plan", "Notes", ".git", "Work", "日記", "a b"][random.below(6)] + "\(index)"
                let path = prefix + name
                try fileManager.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
                switch random.below(3) {
                case 0:
                    // A note and its attachment folder, with a file in it that is no note.
                    try Data("# \(name)".utf8).write(to: URL(fileURLWithPath: root + "/" + path + ".md"))
                    try Data("png".utf8).write(to: URL(fileURLWithPath: root + "/" + path + "/photo.md"))
                    if !name.hasPrefix(".") && !isUnderIgnored(path) { notes.insert(path + ".md") }
                default:
                    folders.append(path)
                    try Data("# note".utf8).write(to: URL(fileURLWithPath: root + "/" + path + "/note.md"))
                    if !isUnderIgnored(path) && !isUnderAttachments(path, root) { notes.insert(path + "/note.md") }
                }
            }
            let listing = try FolderScan.listing(root)
            #expect(
                listing.attachmentFolders == (try FolderScan.attachmentFolders(root)),
                "seed \(seed), round \(round)")
            #expect(Set(listing.files.keys) == notes, "seed \(seed), round \(round)")
            #expect(listing.files == (try FolderScan.scan(root)), "seed \(seed), round \(round)")
        }
    }

    private func isUnderIgnored(_ path: String) -> Bool {
        path.split(separator: "/").contains { $0.hasPrefix(".") }
    }

    /// Whether a folder on `path` (or above it) is a note's attachment folder: nothing under it is a note.
    private func isUnderAttachments(_ path: String, _ root: String) -> Bool {
        let parts = path.split(separator: "/").map(String.init)
        return (1...parts.count).contains { count in
            FileManager.default.fileExists(atPath: root + "/" + parts.prefix(count).joined(separator: "/") + ".md")
        }
    }
}
