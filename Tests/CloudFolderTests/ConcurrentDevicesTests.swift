import NotesCore
import Testing

@testable import CloudFolder

/// Two devices writing one real folder at the same time, as two machines behind a replicator
/// or two processes would: one writer per path means they never interfere (rule 1).
@Suite struct ConcurrentDevicesTests {
    @Test func twoDevicesPublishingConcurrentlyAreBothFetchedWhole() async throws {
        let fixture = FolderFixture(.disk)
        let folder = try fixture.prepared()
        let zone = Fixtures.zone
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (device, offset) in [(Fixtures.deviceA, 0), (Fixtures.deviceB, 1000)] {
                group.addTask {
                    for seq in 1...40 {
                        _ = try folder.publish(
                            Fixtures.batch([offset + seq]), zone: zone, device: device, seq: Int64(seq),
                            hlc: Fixtures.hlc)
                    }
                }
            }
            try await group.waitForAll()
        }
        let fetched = try folder.fetchChanges(zone: zone, since: .empty)
        #expect(fetched.token == ChangeToken([Fixtures.deviceA: 40, Fixtures.deviceB: 40]))
        #expect(fetched.batches.count == 80)
        #expect(
            fetched.batches.allSatisfy {
                $0.batch == Fixtures.batch([($0.device == Fixtures.deviceA ? 0 : 1000) + Int($0.seq)])
            })
        #expect(fetched.notArrived.isEmpty)
        #expect(fixture.allPaths().allSatisfy { !$0.contains(".tmp-") })
    }
}
