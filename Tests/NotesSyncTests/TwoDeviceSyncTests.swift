import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

@Suite("Two devices over one cloud folder")
struct TwoDeviceSyncTests {
    @Test("a note added on A arrives on B with the same revision, in memory, on disk and over S3")
    func addOnAArrivesOnB() async throws {
        let folders = [
            TestFolder.memory().0, try TestFolder.disk(), try await TestFolder.s3(),
            try await TestFolder.s3(encrypted: true),
        ]
        for folder in folders {
            let a = try TestDevice("a", folder: folder)
            let b = try TestDevice("b", folder: folder)
            let note = try a.store.create(title: "Groceries", body: "milk\neggs\n", tags: ["home"])
            let sent = await a.sync()
            #expect(sent.sent.sent == 1)
            #expect(try a.store.pendingCount() == 0)
            #expect(try a.store.note(note.id)?.syncState == .synced)
            let fetched = await b.sync()
            #expect(fetched.fetched.changed == [note.id])
            let arrived = try #require(try b.store.note(note.id))
            #expect(arrived.body == "milk\neggs\n")
            #expect(arrived.tags == ["home"])
            #expect(arrived.headRev == note.headRev)
            #expect(arrived.syncState == .synced)
            #expect(try b.store.search("eggs").hits.map(\.note.id) == [note.id])
        }
    }

    @Test("edits, trash and purge go both ways and a quiet round moves nothing")
    func editsBothWays() async throws {
        try await editsBothWays(over: TestFolder.memory().0)
    }

    @Test(
        "over S3: edits, trash and purge go both ways and a quiet round moves nothing", arguments: FolderKind.allCases)
    func editsBothWaysOverS3(_ kind: FolderKind) async throws {
        try await editsBothWays(over: TestFolder.s3(encrypted: kind == .encrypted))
    }

    @Test("over S3, an encrypted bucket holds no note text and no zone name in any key or object")
    func encryptedBucketHidesText() async throws {
        let folder = try await TestFolder.s3(encrypted: true)
        let a = try TestDevice("a", folder: folder)
        _ = try a.store.create(title: "Zanzibar", body: "marmalade recipe\n")
        _ = await a.sync()
        let io = try #require(folder.io as? S3FileIO)
        var seen: [String] = []
        func walk(_ path: String) throws {
            for name in try io.list(path) {
                let child = path + "/" + name
                seen.append(child)
                if try io.kind(child) == .directory {
                    try walk(child)
                } else {
                    let text = String(decoding: try io.read(child, maxBytes: 4 << 20), as: UTF8.self)
                    #expect(!text.contains("marmalade") && !text.contains("Zanzibar"), "plain text in \(child)")
                }
            }
        }
        try walk(folder.layout.root)
        #expect(seen.count > 4)
        #expect(!seen.contains { $0.contains("marmalade") || $0.contains("/\(Note.defaultZone)") })
    }

    func editsBothWays(over folder: DirectoryCloudFolder) async throws {
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        let kept = try a.store.create(title: "kept", body: "one\n")
        let gone = try a.store.create(title: "gone", body: "bye\n")
        try await quiesce([a, b])
        _ = try b.store.update(kept.id) { $0.body = "one\ntwo\n" }
        try b.store.purge(gone.id)
        _ = try a.store.setFavorite(kept.id, true)
        try await quiesce([a, b])
        let onA = try #require(try a.store.note(kept.id))
        #expect(onA.body == "one\ntwo\n")
        #expect(onA.isFavorite)
        #expect(try a.store.note(gone.id) == nil)
        let quiet = await a.sync()
        #expect(quiet.sent.sent == 0 && quiet.fetched.received == 0)
    }

    @Test("a device an hour behind stamps its next edit after the remote edit it received (HLC, rule 7)")
    func clockFollowsRemoteStamps() async throws {
        let (folder, _) = TestFolder.memory()
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder, clock: TestClock(1_700_000_000_000 + 3_600_000))
        let note = try a.store.create(title: "t", body: "1\n")
        try await quiesce([a, b])
        let remote = try b.store.update(note.id) { $0.body = "2\n" }
        try await quiesce([a, b])
        let local = try a.store.update(note.id) { $0.body = "3\n" }
        let stamps = Dictionary(uniqueKeysWithValues: try a.store.history(note.id).map { ($0.id, $0.hlc) })
        #expect(try #require(stamps[local.headRev!]) > (try #require(stamps[remote.headRev!])))
    }
}
