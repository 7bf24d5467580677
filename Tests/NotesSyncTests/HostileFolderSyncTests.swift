import CloudFolder
import Foundation
import Glibc
import NotesCore
import NotesStore
import NotesSync
import Testing

/// A cloud folder with junk, hostile and broken files in it, seen by whole devices (SYNC-FORMAT
/// rule 9, §4, §7 "Paths"): each bad file is skipped and counted, never followed or read whole,
/// and everything else keeps syncing.
@Suite("A hostile cloud folder: the rest syncs")
struct HostileFolderSyncTests {
    @Test("junk, a corrupt and a truncated file, a planted symlink, a 1 GB sparse file: skipped and counted")
    func theRestSyncs() async throws {
        let folder = try TestFolder.disk()
        defer { try? FileManager.default.removeItem(atPath: folder.layout.root) }
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        let first = try a.store.create(title: "first", body: "1\n")
        await a.sync()
        let zone = ZoneID("notes")!
        let layout = folder.layout
        let valid = try #require(
            FileManager.default.contents(atPath: layout.logFile(zone, device: DeviceID(a.store.deviceID)!, seq: 1)))
        func plant(_ device: String, _ make: (String) throws -> Void) throws {
            let path = layout.logFile(zone, device: DeviceID(device)!, seq: 1)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try make(path)
        }
        // Another device's file, byte-flipped; another's, cut in half.
        try plant("cccccccccccccccc") { path in
            var bytes = Array(valid)
            bytes[bytes.count / 2] ^= 0x20
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        }
        try plant("dddddddddddddddd") {
            #expect(FileManager.default.createFile(atPath: $0, contents: valid.prefix(valid.count / 2)))
        }
        // A symlink named like a log file, pointing out of the folder.
        try plant("eeeeeeeeeeeeeeee") {
            try FileManager.default.createSymbolicLink(atPath: $0, withDestinationPath: "/etc/passwd")
        }
        // 1 GB, sparse (ftruncate): refused from its size, never read.
        try plant("ffffffffffffffff") { path in
            let fd = open(path, O_CREAT | O_WRONLY, 0o600)
            #expect(fd >= 0 && ftruncate(fd, 1 << 30) == 0)
            close(fd)
        }
        // A symlink where a device folder would be, and names that are not ours.
        try FileManager.default.createSymbolicLink(
            atPath: layout.logDirectory(zone) + "/gggggggggggggggg", withDestinationPath: layout.root)
        for name in ["desktop.ini", ".DS_Store", "NOTES", "..."] {
            let path = layout.logDirectory(zone) + "/" + name
            #expect(FileManager.default.createFile(atPath: path, contents: Data("junk".utf8)))
        }
        #expect(
            FileManager.default.createFile(atPath: layout.zonesDirectory + "/Thumbs.db", contents: Data("junk".utf8)))

        let started = ContinuousClock.now
        let summary = await b.sync()
        #expect(ContinuousClock.now - started < .seconds(60), "a 1 GB file was read?")
        #expect(try b.store.note(first.id)?.body == "1\n")
        #expect(summary.fetched.notArrived == 4, "\(summary.fetched)")
        let warnings = await b.engine.report().warnings
        #expect(warnings.contains { $0.contains("unknown name(s) in zone notes were ignored") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("refused without reading") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("unknown name(s) in the zones folder") }, "\(warnings)")
        // And the folder keeps working both ways.
        let second = try b.store.create(title: "second", body: "2\n")
        _ = try a.store.update(first.id) { $0.body = "1, edited\n" }
        try await quiesce([a, b])
        #expect(try a.store.note(second.id) != nil)
        #expect(try b.store.note(first.id)?.body == "1, edited\n")
        #expect(try b.store.integrityCheck() == "ok")
    }
}
