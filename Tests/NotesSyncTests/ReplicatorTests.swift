import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// Two copies of a cloud folder joined by a simulated replicator (Dropbox, Syncthing) that
/// delays, reorders, duplicates, delivers partial files and renames into conflicted copies.
/// Devices must converge once it heals (SYNC-FORMAT rules 4, 5, 9; §7).
struct SimulatedReplicator {
    var random: SeededRandom
    let sides: [InMemoryFileIO]
    let root = "/cloud"

    /// Copies what `from` has and `to` lacks, misbehaving at random unless `healing`.
    mutating func step(from: Int, to: Int, healing: Bool) {
        let source = sides[from]
        let target = sides[to]
        var pending = source.allPaths().filter { $0.hasPrefix(root + "/") }.compactMap { path in
            source.contents(path).map { (path, $0) }
        }
        // Reorder: a replicator delivers in no particular order.
        pending.shuffle(using: &random)
        for (path, bytes) in pending {
            let existing = target.contents(path)
            if existing == bytes { continue }
            let name = String(path[path.index(after: path.lastIndex(of: "/")!)...])
            let parent = String(path[..<path.lastIndex(of: "/")!])
            if name.contains(".tmp-") && (healing || random.next() % 2 == 0) { continue }
            target.plantDirectory(parent)
            // A write-once file that differs on the other side is a conflict to a replicator:
            // it keeps both (only the device files are rewritten on purpose).
            if let existing, existing.count == bytes.count || !bytes.starts(with: existing),
                !path.contains("/devices/")
            {
                target.plantFile(
                    parent + "/" + name.replacingOccurrences(of: ".json", with: " (conflicted copy).json"), bytes)
                continue
            }
            if healing {
                target.plantFile(path, bytes)
                continue
            }
            switch random.next() % 10 {
            case 0, 1, 2, 3: target.plantFile(path, bytes)
            case 4: target.plantFile(path, Array(bytes.prefix(bytes.count / 2)))  // partial delivery
            case 5 where name.hasSuffix(".json"):
                target.plantFile(
                    parent + "/" + name.replacingOccurrences(of: ".json", with: " (conflicted copy).json"), bytes)
            case 6:
                target.plantFile(path, bytes)
                target.plantFile(path, bytes)  // duplicate delivery
            default: continue  // delayed
            }
        }
    }
}

@Suite("Two folder copies joined by a misbehaving replicator")
struct ReplicatorTests {
    @Test("devices converge once the replicator heals, 40 seeds", arguments: FolderKind.allCases)
    func converge(_ kind: FolderKind) async throws {
        var partial = 0
        var salvaged = 0
        var deleted = 0
        for seed in 5000..<5040 {
            let seen = try await run(seed: UInt64(seed), kind)
            partial += seen.partial
            salvaged += seen.salvaged
            deleted += seen.deleted
        }
        // The misbehaviour must really reach the engine, or converging proves little.
        #expect(partial > 0 && salvaged > 0, "partial files seen \(partial), salvaged copies \(salvaged)")
        #expect(deleted > 10, "only \(deleted) log files compacted away in 40 seeds")
    }

    /// Runs one seed; returns how many files a fetch found not arrived, how many renamed copies
    /// a repair ingested, and how many log files compaction deleted.
    func run(seed: UInt64, _ kind: FolderKind = .plain) async throws -> (partial: Int, salvaged: Int, deleted: Int) {
        let seal = kind == .encrypted ? TestFolder.testSeal() : nil
        var seen = (partial: 0, salvaged: 0, deleted: 0)
        let label = "seed \(seed)"
        let ios = [InMemoryFileIO(), InMemoryFileIO()]
        for io in ios { io.plantDirectory("/cloud") }
        var replicator = SimulatedReplicator(random: SeededRandom(seed: seed), sides: ios)
        var random = SeededRandom(seed: seed &+ 1)
        let devices = [
            try TestDevice("a", folder: DirectoryCloudFolder(root: "/cloud", io: ios[0], seal: seal)),
            try TestDevice("b", folder: DirectoryCloudFolder(root: "/cloud", io: ios[1], seal: seal)),
        ]
        let note = try devices[0].store.create(title: "replicated", body: "one\ntwo\nthree\n")
        _ = await devices[0].sync()
        replicator.step(from: 0, to: 1, healing: true)
        _ = await devices[1].sync()
        var ledger: [String] = []
        for step in 0..<30 {
            let index = Int(random.next() % 2)
            let device = devices[index]
            device.clock.advance(by: Int64(random.next() % 30))
            switch random.next() % 7 {
            case 0, 1:
                let token = "r\(seed)-\(step)-\(index)"
                _ = try device.store.update(note.id) { $0.body += token + "\n" }
                ledger.append(token)
            case 2, 3:
                seen.partial += await device.engine.syncNow().fetched.notArrived
            case 4:
                replicator.step(from: index, to: 1 - index, healing: false)
            case 5:
                seen.salvaged += try await device.engine.repair().salvaged
            default:
                // A day passes here and the device compacts its own log (replicas that still
                // hold the deleted files copy them back: old files replayed).
                device.clock.advance(by: 86_400_000 + 60_001)
                _ = await device.engine.syncNow()
                seen.deleted += try await device.engine.compact().zones.values.map(\.deleted).reduce(0, +)
            }
        }
        for _ in 0..<10 {
            replicator.step(from: 0, to: 1, healing: true)
            replicator.step(from: 1, to: 0, healing: true)
            var moved = false
            for device in devices {
                let summary = await device.sync()
                if summary.sent.sent > 0 || summary.fetched.received > 0 { moved = true }
            }
            if !moved { break }
        }
        let first = try devices[0].snapshot()
        #expect(try devices[1].snapshot() == first, "\(label): the devices differ")
        let body = try devices[0].store.note(note.id)?.body ?? ""
        let history = try devices[0].store.history(note.id).compactMap(\.fields?.body).joined()
        for token in ledger {
            #expect(body.contains(token) || history.contains(token), "\(label): \(token) lost")
        }
        for device in devices {
            #expect(try device.store.pendingCount() == 0, "\(label): \(device.name) has pending changes")
        }
        return seen
    }
}
