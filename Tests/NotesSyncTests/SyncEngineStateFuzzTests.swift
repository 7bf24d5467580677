import CloudFolder
import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesSync

/// The engine's saved state, damaged (ARCHITECTURE §7): `SyncEngineState(serialized:)` returns a
/// state or throws, never traps; a state it returns serializes to one that reads back equal,
/// with every seq and time in the ranges the engine computes with (`published + 1`,
/// `now - written`, `flight.seq - 1`).
@Suite struct SyncEngineStateFuzzTests {
    static func seeds() -> [SyncEngineState] {
        let a = DeviceID("aaaaaaaaaaaaaaaa")!
        let b = DeviceID("bbbbbbbbbbbbbbbb")!
        let notes = ZoneID("notes")!
        let work = ZoneID("work-2")!
        var full = SyncEngineState()
        full.containerID = "2aa3300b-2b71-4343-a20d-672b15ad9a9d"
        full.deviceID = b
        full.rotatedFrom = [a]
        full.zones[notes] = .init(
            token: ChangeToken([a: 40, b: 999_999_999_999]), published: 40, pruned: 30, deletedThrough: 20,
            snapshots: [.init(seq: 25, written: 1_700_000_000_000), .init(seq: 39, written: 1_700_000_100_000)])
        full.zones[work] = .init()
        full.inFlight = .init(
            zone: notes, seq: 41, hlc: HLC(millis: 1_700_000_000_000, counter: 3), outboxSeqs: [7, 9])
        full.lastSync = 1_700_000_200_000
        full.deviceFileWritten = 1_700_000_100_000
        full.deletedZones = [work]
        full.warnings = ["skipped log/aaaaaaaaaaaaaaaa/000000000001.json: not arrived", "clock skew 日本"]
        var small = SyncEngineState()
        small.zones[notes] = .init(token: ChangeToken([a: 1]), published: 1)
        return [SyncEngineState(), full, small]
    }

    @Test func damagedStatesReadOrThrow() throws {
        let run = FuzzRun("engine state")
        var rng = SeededRandom(seed: run.seed)
        let seeds = Self.seeds()
        for seed in seeds { #expect(try SyncEngineState(serialized: seed.serialized) == seed) }
        let mutator = ByteMutator(
            corpus: seeds.map { Array($0.serialized.utf8) },
            extraTokens: ["zones", "token", "published", "inFlight", "outbox", "snapshots", "aaaaaaaaaaaaaaaa"].map {
                Array($0.utf8)
            })
        let seqs = ChangeToken.seqRange
        let times = DeviceInfo.timeRange
        var read = 0
        for iteration in 0..<run.iterations {
            let bytes = mutator.mutate(mutator.corpus.randomElement(using: &rng)!, using: &rng)
            guard let state = try? SyncEngineState(serialized: String(decoding: bytes, as: UTF8.self)) else { continue }
            read += 1
            let context = run.context(iteration)
            #expect(try SyncEngineState(serialized: state.serialized) == state, "\(context)")
            let zones = state.zones.values
            #expect(
                zones.allSatisfy { zone in
                    [zone.published, zone.pruned, zone.deletedThrough].allSatisfy(seqs.contains)
                        && zone.token.seqByDevice.values.allSatisfy(seqs.contains)
                        && zone.snapshots.allSatisfy { seqs.contains($0.seq) && times.contains($0.written) }
                }, "\(context)")
            #expect(
                [state.lastSync, state.deviceFileWritten].allSatisfy { $0.map(times.contains) ?? true }, "\(context)")
            #expect(
                state.inFlight.map { $0.seq >= 1 && seqs.contains($0.seq) && $0.outboxSeqs.allSatisfy { $0 >= 1 } }
                    ?? true, "\(context)")
        }
        print("fuzz engine state: \(read) of \(run.iterations) damaged states still read")
    }

    @Test func seqsAndTimesTheEngineComputesWithAreChecked() {
        let zone = #"{"token":{},"published":"#
        for text in [
            #"{"zones":{"notes":\#(zone)9223372036854775807}}}"#,  // published + 1 trapped in publish
            #"{"zones":{"notes":\#(zone)1,"snapshots":[[1,-9223372036854775808]]}}}"#,  // now - written
            #"{"zones":{},"deviceFileWritten":-9223372036854775808}"#,  // now - written
            #"{"zones":{},"inFlight":{"zone":"notes","seq":-9223372036854775808,"hlc":"0001700000000000-0000","outbox":[]}}"#,
            #"{"zones":{},"inFlight":{"zone":"notes","seq":1,"hlc":"0001700000000000-0000","outbox":[-9223372036854775808]}}"#,
        ] {
            #expect(throws: CloudError.self, "\(text)") { try SyncEngineState(serialized: text) }
        }
    }
}
