import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// ARCHITECTURE §7's oracle with compaction in the schedule (rule 11): three devices edit one note and
/// make notes of their own, sync, fall silent for a month, come back, and compact at random
/// (from a seed the failure message prints). Once everyone has synced until nothing moves, they
/// hold byte-identical notes with the same revision ids, every acknowledged edit is in the final
/// text or the history, and a device that joins afterwards gets the same.
@Suite("Random schedules with compaction converge (seeded)")
struct RandomCompactionTests {
    @Test("three devices, 40 seeds")
    func threeDevices() async throws {
        var totals = (loaded: 0, deleted: 0)
        for seed in UInt64(5000)..<5040 {
            let seen = try await run(seed: seed)
            totals = (totals.loaded + seen.loaded, totals.deleted + seen.deleted)
        }
        // The schedules must really compact and make devices come back to deleted files.
        #expect(totals.deleted > 100, "only \(totals.deleted) log files deleted in 40 seeds")
        #expect(totals.loaded > 20, "only \(totals.loaded) snapshots loaded in 40 seeds")
    }

    /// A month passes; the devices sync (acknowledging each other's logs), write snapshots, and
    /// a day later compact. Returns how many log files were deleted.
    static func compactionRound(_ devices: [TestDevice]) async throws -> Int {
        CompactionTests.advance(devices, by: 31 * CompactionTests.day)
        await CompactionTests.syncRound(devices + devices)
        for device in devices { _ = try await device.engine.compact() }
        CompactionTests.advance(devices, by: CompactionTests.day + CompactionTests.minute)
        await CompactionTests.syncRound(devices + devices)
        var deleted = 0
        for device in devices {
            deleted += try await device.engine.compact().zones.values.map(\.deleted).reduce(0, +)
        }
        return deleted
    }

    /// Runs one seed; returns how many snapshots were loaded and log files deleted.
    func run(seed: UInt64) async throws -> (loaded: Int, deleted: Int) {
        var random = SeededRandom(seed: seed)
        let (folder, _, devices) = try CompactionTests.memoryDevices(3)
        let label = "seed \(seed)"
        let note = try devices[0].store.create(title: "shared", body: "l1\nl2\nl3\n")
        try await quiesce(devices, label: label)
        var ledger: [String] = []
        var loaded = 0
        var deleted = 0
        // One device is away (does nothing) for a stretch, during which the others twice let a
        // month pass, sync and compact: it comes back to a compacted folder with its edits.
        let away = Int(random.next() % 3)
        let awaySteps = 15..<45
        for step in 0..<60 {
            if step == 25 || step == 40 {
                deleted += try await Self.compactionRound(
                    devices.enumerated().filter { $0.offset != away }.map(\.element))
            }
            let index = Int(random.next() % 3)
            let device = devices[index]
            if index == away && awaySteps.contains(step) { continue }
            switch random.next() % 10 {
            case 0, 1, 2:
                guard try device.store.note(note.id) != nil else { continue }
                let token = "s\(seed)-e\(step)-d\(index)"
                _ = try device.store.update(note.id) { current in
                    var lines = current.body.split(separator: "\n").map(String.init)
                    lines.insert(token, at: Int(random.next() % UInt64(lines.count + 1)))
                    current.body = lines.map { $0 + "\n" }.joined()
                }
                ledger.append(token)
            case 3:
                let token = "s\(seed)-n\(step)-d\(index)"
                _ = try device.store.create(title: token, body: token + "\n")
                ledger.append(token)
            case 4, 5:
                device.clock.advance(by: CompactionTests.minute + 1)
                let summary = await device.sync()
                loaded += summary.fetched.snapshotsLoaded
            case 6:
                let summary = try await device.engine.compact()
                deleted += summary.zones.values.map(\.deleted).reduce(0, +)
            case 7:
                // Time passes for everyone: an hour, a day, or a month (silent devices go inactive).
                let span = [3_600_000, CompactionTests.day + CompactionTests.minute, 31 * CompactionTests.day]
                CompactionTests.advance(devices, by: span[Int(random.next() % 3)])
            case 8:
                _ = try await device.engine.sendChanges()
            default:
                let summary = try await device.engine.fetchChanges()
                loaded += summary.snapshotsLoaded
            }
        }
        let newcomer = try TestDevice(
            "new", folder: folder, clock: TestClock(devices[0].clock.date.millisecondsSince1970))
        let all = devices + [newcomer]
        try await quiesce(all, maxRounds: 12, label: label)
        let histories = try all.map { Set(try $0.store.history(note.id).map(\.id)) }
        for (device, history) in zip(all, histories) {
            #expect(history == histories[0], "\(label): \(device.name) has other revisions than d0")
            let texts = try device.store.history(note.id).compactMap(\.fields?.body).joined(separator: "\n")
            let titles = try device.store.list(ListRequest(section: .all, limit: 1000)).map(\.title)
            let final = try device.store.note(note.id)?.body ?? ""
            for token in ledger {
                #expect(
                    final.contains(token) || texts.contains(token) || titles.contains(token),
                    "\(label): \(token) lost on \(device.name)")
            }
            #expect(try device.store.pendingCount() == 0, "\(label): \(device.name) still has pending changes")
            #expect(try device.store.bufferedRevisionCount() == 0, "\(label): \(device.name) waits for parents")
        }
        return (loaded, deleted)
    }
}
