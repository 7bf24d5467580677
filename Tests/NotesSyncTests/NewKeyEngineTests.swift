import CloudFolder
import Crypto
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// A running engine whose folder's key was changed on another device (`sync passphrase
/// --new-key`, SYNC-FORMAT rule 14): it learns so from the keys file at its next pass (or from
/// a file sealed with the new key), says so, and writes nothing more with the old key; given
/// the new ring it reads everything.
@Suite("A new data key while an engine runs")
struct NewKeyEngineTests {
    @Test("an engine holding the old key stops writing at its next pass after the key changed")
    func oldKeyStopsWriting() async throws {
        let io = InMemoryFileIO()
        io.plantDirectory("/cloud")
        let first = SymmetricKey(size: .bits256)
        let containerID = UUID().uuidString.lowercased()
        let old = FolderSeal(dataKey: first, containerID: containerID)
        let ring = try #require(Keyring(first).addingRandomKey())
        let new = FolderSeal(keyring: ring, containerID: containerID)
        let a = try TestDevice("a", folder: DirectoryCloudFolder(root: "/cloud", io: io, seal: old))
        let b = try TestDevice("b", folder: DirectoryCloudFolder(root: "/cloud", io: io, seal: old))
        _ = try a.store.create(title: "one", body: "under the first key\n")
        try await quiesce([a, b])

        // a changes the key: a keys file wraps both keys, and from now on a seals with key 2.
        let sealedNew = DirectoryCloudFolder(root: "/cloud", io: io, seal: new)
        let keys = try KeysFile.wrap(
            ring, passphrase: "new", generation: 1, containerID: containerID, cost: KeysFile.Cost(logN: 10))
        try sealedNew.publishKeys(
            keys, device: try #require(DeviceID("aaaaaaaaaaaaaaaa")), hlc: HLC(millis: 1_700_000_000_000))
        let rotated = try a.copied(as: "a-rotated", folder: sealedNew)
        _ = try rotated.store.create(title: "two", body: "under the second key\n")
        let before = Set(io.allPaths())
        await rotated.sync()
        let written = io.allPaths().filter { !before.contains($0) && $0.hasPrefix("/cloud/private/") }
        #expect(!written.isEmpty)
        for path in written {
            #expect(io.contents(path)?.starts(with: Array("CNSEAL2\n".utf8) + [0, 0, 0, 2]) == true, "\(path)")
        }

        // b still holds key 1 only: its pass fails, said as the key having changed, and what
        // b wrote meanwhile stays pending, never sealed with the old key.
        _ = try b.store.create(title: "from b", body: "must not go out under the old key\n")
        let device = await b.engine.device
        let own = { io.allPaths().filter { $0.contains("/log/\(device)/") } }
        let ownBefore = own()
        let summary = await b.engine.syncNow()
        let error = try #require(summary.error)
        #expect(error.code == .notAuthenticated && error.message.contains("changed on another device"), "\(error)")
        #expect(own() == ownBefore, "b published with the old key")
        #expect(try b.store.pendingCount() > 0)
        #expect("\(await b.engine.status.phase)".contains("changed on another device"))

        // Given the ring, b reads both keys' notes and sends its own.
        let taken = try b.copied(as: "b-rotated", folder: DirectoryCloudFolder(root: "/cloud", io: io, seal: new))
        try await quiesce([rotated, taken])
        for device in [rotated, taken] {
            let titles = try device.store.list(ListRequest(section: .all, limit: 10)).map(\.title).sorted()
            #expect(titles == ["from b", "one", "two"], "\(device.name)")
        }
    }
}
