import Foundation
import NotesCore
import Testing

@testable import CloudFolder

/// SYNC-FORMAT rule 12: a container is created only in an empty folder; a bound folder whose
/// container.json is missing is temporarily unavailable and nothing is created.
@Suite struct ContainerTests {
    let a = Fixtures.deviceA
    let zone = Fixtures.zone

    @Test(arguments: Backend.allCases)
    func aContainerIsCreatedInAnEmptyFolderAndOpensWithItsID(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        try fixture.plant(fixture.root + "/.stfolder/.keep", [])  // Syncthing's marker does not count
        let info = try fixture.folder.createContainer(device: a, hlc: Fixtures.hlc)
        #expect(try fixture.folder.openContainer(boundTo: nil) == info)
        #expect(try fixture.folder.openContainer(boundTo: info.containerID) == info)
        #expect(UUID(uuidString: info.containerID) != nil)
        #expect(
            info.containerID
                != (try FolderFixture(backend).folder.createContainer(device: a, hlc: Fixtures.hlc)).containerID)
    }

    @Test(arguments: Backend.allCases)
    func aContainerIsNeverCreatedInAFolderThatHoldsSomething(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        try fixture.plant(fixture.root + "/shopping.txt", Array("eggs".utf8))
        #expect {
            try fixture.folder.createContainer(device: a, hlc: Fixtures.hlc)
        } throws: { ($0 as? CloudError)?.code == .badContainer }
        #expect(fixture.allPaths() == ["shopping.txt"])
    }

    @Test(arguments: Backend.allCases)
    func containerJSONIsWriteOnce(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let first = try fixture.folder.createContainer(device: a, hlc: Fixtures.hlc)
        #expect(throws: CloudError.self) { try fixture.folder.createContainer(device: a, hlc: Fixtures.hlc) }
        #expect(try fixture.folder.openContainer(boundTo: first.containerID) == first)
    }

    @Test(arguments: Backend.allCases)
    func aBoundFolderWithoutContainerJSONIsTemporarilyUnavailableAndNothingIsCreated(backend: Backend) throws {
        // An unmounted disk: an empty directory where the folder was.
        let fixture = FolderFixture(backend)
        let folder = fixture.folder
        let unavailable: (any Error) -> Bool = { ($0 as? CloudError)?.code == .accountTemporarilyUnavailable }
        #expect(
            performing: { try folder.openContainer(boundTo: "3f1c2a5e-0000-4000-8000-000000000000") },
            throws: unavailable)
        #expect(
            performing: { try folder.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc) },
            throws: unavailable)
        #expect(
            performing: { try folder.fetchChanges(zone: zone, since: .empty, limit: FetchLimit(batches: 10)) },
            throws: unavailable)
        #expect(
            performing: {
                try folder.createZone(ZoneInfo(zone: zone, displayName: "N", createdBy: a), hlc: Fixtures.hlc)
            }, throws: unavailable)
        #expect(
            performing: {
                try folder.writeDevice(DeviceInfo(name: "laptop", lastSeen: 1), device: a, hlc: Fixtures.hlc)
            }, throws: unavailable)
        #expect(performing: { try folder.zones() }, throws: unavailable)
        #expect(performing: { try folder.zoneStatus(zone) }, throws: unavailable)
        #expect(fixture.allPaths().isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func aBoundFolderThatLostContainerJSONKeepsEverythingElse(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        _ = try folder.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        let id = try folder.openContainer(boundTo: nil).containerID
        // container.json evicted (say, by a cloud client's "online only" mode).
        if let memory = fixture.memory {
            try memory.remove(fixture.layout.containerFile)
        } else {
            try FileManager.default.removeItem(atPath: fixture.layout.containerFile)
        }
        let before = fixture.allPaths()
        #expect(throws: CloudError.self) { try folder.openContainer(boundTo: id) }
        #expect(throws: CloudError.self) {
            try folder.publish(Fixtures.batch([2]), zone: zone, device: a, seq: 2, hlc: Fixtures.hlc)
        }
        #expect(fixture.allPaths() == before)
    }

    @Test(arguments: Backend.allCases)
    func anUnboundFolderWithoutContainerIsUnknownItem(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        #expect {
            try fixture.folder.openContainer(boundTo: nil)
        } throws: { ($0 as? CloudError)?.code == .unknownItem }
    }

    @Test(arguments: Backend.allCases)
    func aMissingFolderIsTemporarilyUnavailable(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let gone = DirectoryCloudFolder(root: fixture.root + "/unmounted", io: fixture.folder.io)
        #expect {
            try gone.openContainer(boundTo: "x")
        } throws: { ($0 as? CloudError)?.code == .accountTemporarilyUnavailable }
        #expect {
            try gone.createContainer(device: a, hlc: Fixtures.hlc)
        } throws: { ($0 as? CloudError)?.code == .accountTemporarilyUnavailable }
        #expect(fixture.allPaths().isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func aTornContainerJSONIsTemporarilyUnavailableAndANewerFormatIsIncompatible(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        var envelope = Envelope(
            kind: .container, device: a.rawValue, hlc: Fixtures.hlc, body: ContainerInfo.random().json)
        try fixture.plant(fixture.layout.containerFile, Array(envelope.encoded.dropLast(3)))
        #expect {
            try fixture.folder.openContainer(boundTo: "x")
        } throws: { ($0 as? CloudError)?.code == .accountTemporarilyUnavailable }

        let newer = FolderFixture(backend)
        envelope.format = 3  // the format of log files with attachments, never of a container.json
        try newer.plant(newer.layout.containerFile, envelope.encoded)
        #expect {
            try newer.folder.openContainer(boundTo: nil)
        } throws: { ($0 as? CloudError)?.code == .incompatibleVersion }
    }
}
