import Glibc
import NotesCore
import NotesTestSupport
import Testing

@testable import CloudFolder

/// Random schedules of publications, faults, crashes, power losses and fetches over one
/// in-memory folder, from a seed the failure message prints (STYLE: sync tests).
///
/// The oracle (ARCHITECTURE §7): a fetch never sees a partial or foreign file (nothing "not arrived"),
/// every batch fetched is exactly the one published for its (device, seq), in order and
/// contiguous; every acknowledged publication survives power losses; once faults stop, every
/// batch arrives.
@Suite struct RandomScheduleTests {
    static let seeds: [UInt64] = Array(1...40)

    @Test(arguments: seeds)
    func publicationsSurviveFaultsAndArriveInOrder(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let io = InMemoryFileIO()
        io.plantDirectory("/cloud")
        let folder = DirectoryCloudFolder(root: "/cloud", io: io)
        let zone = Fixtures.zone
        _ = try folder.createContainer(device: Fixtures.deviceA, hlc: Fixtures.hlc)
        _ = try folder.createZone(
            ZoneInfo(zone: zone, displayName: "N", createdBy: Fixtures.deviceA), hlc: Fixtures.hlc)
        let devices = [Fixtures.deviceA, Fixtures.deviceB]
        // The batch of (device, seq) is a function of both, as an outbox would make it.
        func batch(_ device: DeviceID, _ seq: Int64) -> ChangeBatch {
            Fixtures.batch([(device == Fixtures.deviceA ? 0 : 10_000) + Int(seq)])
        }
        var nextSeq: [DeviceID: Int64] = [Fixtures.deviceA: 1, Fixtures.deviceB: 1]
        var acknowledged: [DeviceID: Int64] = [:]
        var token = ChangeToken.empty
        let errnos: [Int32] = [EIO, ENOSPC, EDQUOT, EACCES, EROFS, EMFILE, ENOTCONN]
        let steps: [FileIOStep] = [.makeDirectory, .kind, .read] + FileIOStep.publication

        func fetchAndCheck() throws {
            let fetched = try folder.fetchChanges(zone: zone, since: token)
            #expect(fetched.notArrived.isEmpty, "seed \(seed): \(fetched.notArrived)")
            var expectedNext = token
            for item in fetched.batches {
                #expect(item.seq == expectedNext[item.device] + 1, "seed \(seed): not contiguous")
                #expect(item.batch == batch(item.device, item.seq), "seed \(seed): wrong batch")
                expectedNext[item.device] = item.seq
            }
            #expect(fetched.token == expectedNext, "seed \(seed)")
            token = fetched.token
        }

        for _ in 0..<120 {
            switch random.next() % 10 {
            case 0...5:
                let device = devices.randomElement(using: &random)!
                let seq = nextSeq[device]!
                if random.next() % 3 == 0 {
                    let step = steps.randomElement(using: &random)!
                    if random.next() % 2 == 0 {
                        io.crash(at: step)
                    } else {
                        io.fail(step, errno: errnos.randomElement(using: &random)!)
                    }
                }
                do {
                    _ = try folder.publish(batch(device, seq), zone: zone, device: device, seq: seq, hlc: Fixtures.hlc)
                    acknowledged[device] = seq
                    nextSeq[device] = seq + 1
                } catch is InMemoryFileIO.SimulatedCrash {
                    io.restart()
                } catch let error as CloudError {
                    #expect(error.errno != nil, "seed \(seed): \(error)")
                }
                io.clearFaults()
            case 6:
                io.powerLoss()
                // Everything acknowledged is still there, byte for byte as published.
                for (device, seq) in acknowledged {
                    let path = folder.layout.logFile(zone, device: device, seq: seq)
                    #expect(io.contents(path) != nil, "seed \(seed): acknowledged \(device):\(seq) lost")
                }
            default:
                try fetchAndCheck()
            }
        }
        io.clearFaults()
        try fetchAndCheck()
        for device in devices {
            #expect(token[device] >= acknowledged[device] ?? 0, "seed \(seed): \(device) did not arrive")
        }
    }
}
