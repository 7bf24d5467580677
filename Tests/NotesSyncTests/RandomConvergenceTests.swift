import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// ARCHITECTURE §7's oracle over random concurrent edits: random edit scripts and delivery orders
/// (partial sends and fetches) from a seed the failure message prints. Once every device has
/// synced until nothing moves, all must hold byte-identical notes with the same revision ids,
/// and every acknowledged edit's text must be in the final body or in the note's history on
/// every device.
@Suite("Random concurrent edits converge (seeded)")
struct RandomConvergenceTests {
    @Test("two devices, 120 seeds", arguments: FolderKind.allCases)
    func twoDevices(_ kind: FolderKind) async throws {
        var merged = 0
        for seed in 0..<120 where try await run(seed: UInt64(seed), deviceCount: 2, kind) { merged += 1 }
        // The scripts must really make concurrent edits, or the oracle proves nothing.
        #expect(merged > 30, "only \(merged) of 120 seeds made a merge")
    }

    @Test("three devices, 80 seeds", arguments: FolderKind.allCases)
    func threeDevices(_ kind: FolderKind) async throws {
        var merged = 0
        for seed in 1000..<1080 where try await run(seed: UInt64(seed), deviceCount: 3, kind) { merged += 1 }
        #expect(merged > 20, "only \(merged) of 80 seeds made a merge")
    }

    /// The same oracle over S3 (SeaweedFS on loopback): fewer seeds, each costs real requests
    /// (two devices: 10 seeds, three: 4).
    @Test("two and three devices over S3, a few seeds", arguments: [2, 3], FolderKind.allCases)
    func overS3(deviceCount: Int, _ kind: FolderKind) async throws {
        let seeds = deviceCount == 2 ? 0..<10 : 1000..<1004
        var merged = 0
        for seed in seeds where try await run(seed: UInt64(seed), deviceCount: deviceCount, kind, over: .s3) {
            merged += 1
        }
        #expect(merged >= (deviceCount == 2 ? 2 : 1), "\(merged) of \(seeds.count) seeds made a merge")
    }

    /// Runs one seed; returns whether the note's history holds a merge.
    @discardableResult
    func run(seed: UInt64, deviceCount: Int, _ kind: FolderKind = .plain, over backend: FolderBackend = .memory)
        async throws -> Bool
    {
        var random = SeededRandom(seed: seed)
        let folder = try await backend.folder(kind)
        let devices = try (0..<deviceCount).map {
            try TestDevice("d\($0)", folder: folder, clock: TestClock(1_700_000_000_000 + Int64(random.next() % 5000)))
        }
        let label = "seed \(seed) (\(deviceCount) devices)"
        let note = try devices[0].store.create(title: "shared", body: "l1\nl2\nl3\nl4\nl5\n", tags: ["t"])
        try await quiesce(devices, label: label)
        var ledger: [String] = []
        for step in 0..<24 {
            let index = Int(random.next() % UInt64(deviceCount))
            let device = devices[index]
            device.clock.advance(by: Int64(random.next() % 40))
            switch random.next() % 8 {
            case 0, 1, 2:
                guard try device.store.note(note.id) != nil else { continue }
                let token = "s\(seed)-e\(step)-d\(index)"
                _ = try device.store.update(note.id) { current in
                    var lines = current.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    if lines.last == "" { lines.removeLast() }
                    let at = Int(random.next() % UInt64(lines.count + 1))
                    switch random.next() % 3 {
                    case 0 where !lines.isEmpty: lines[min(at, lines.count - 1)] = token
                    case 1 where lines.count > 1: lines.remove(at: min(at, lines.count - 1))
                    default: lines.insert(token, at: at)
                    }
                    current.body = lines.map { $0 + "\n" }.joined()
                }
                if try device.store.history(note.id).contains(where: { $0.fields?.body.contains(token) == true }) {
                    ledger.append(token)
                }
            case 3:
                guard try device.store.note(note.id) != nil else { continue }
                _ = try device.store.update(note.id) { current in
                    switch random.next() % 3 {
                    case 0: current.isFavorite.toggle()
                    case 1: current.tags = random.next() % 2 == 0 ? ["t", "d\(index)"] : []
                    default: current.title = "title \(step)"
                    }
                }
            case 4, 5:
                _ = try await device.engine.sendChanges()
            case 6:
                _ = try await device.engine.fetchChanges()
            default:
                if random.next() % 6 == 0, try device.store.note(note.id) != nil { try device.store.purge(note.id) }
            }
        }
        try await quiesce(devices, maxRounds: 12, label: label)
        let histories = try devices.map { Set(try $0.store.history(note.id).map(\.id)) }
        for (device, history) in zip(devices, histories) {
            #expect(history == histories[0], "\(label): \(device.name) has other revisions than d0")
            let texts = try device.store.history(note.id).compactMap(\.fields?.body).joined(separator: "\n")
            let final = try device.store.note(note.id)?.body ?? ""
            for token in ledger {
                #expect(final.contains(token) || texts.contains(token), "\(label): \(token) lost on \(device.name)")
            }
        }
        for device in devices {
            #expect(try device.store.pendingCount() == 0, "\(label): \(device.name) still has pending changes")
            #expect(try device.store.bufferedRevisionCount() == 0, "\(label): \(device.name) waits for parents")
        }
        return try devices[0].store.history(note.id).contains { $0.parents.count > 1 }
    }
}
