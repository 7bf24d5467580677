import Foundation
import Glibc
import NotesCore
import Testing

@testable import CloudFolder

/// Faults at each step of ARCHITECTURE §7's atomic write recipe, through `InMemoryFileIO`: a crash,
/// an errno, a power loss. The oracle: no partial file is ever visible, an unacknowledged
/// publication can be redone and then writes identical bytes, and an acknowledged one survives.
@Suite struct PublicationFaultTests {
    let zone = Fixtures.zone
    let a = Fixtures.deviceA

    func prepared() throws -> (InMemoryFileIO, DirectoryCloudFolder) {
        let io = InMemoryFileIO()
        io.plantDirectory("/cloud")
        let folder = DirectoryCloudFolder(root: "/cloud", io: io)
        _ = try folder.createContainer(device: a, hlc: Fixtures.hlc)
        _ = try folder.createZone(ZoneInfo(zone: zone, displayName: "Notes", createdBy: a), hlc: Fixtures.hlc)
        return (io, folder)
    }

    /// The published file as text, so a failing expectation prints JSON rather than bytes.
    func logFileText(_ io: InMemoryFileIO, _ folder: DirectoryCloudFolder) -> String? {
        io.contents(folder.layout.logFile(zone, device: a, seq: 1)).map { String(decoding: $0, as: UTF8.self) }
    }

    var expectedText: String { String(decoding: expectedBytes, as: UTF8.self) }

    var expectedBytes: [UInt8] {
        Envelope(
            kind: .changes, zone: zone.rawValue, device: a.rawValue, seq: 1, hlc: Fixtures.hlc,
            body: try! Fixtures.batch([1, 2]).body()
        ).encoded
    }

    func publish(_ folder: DirectoryCloudFolder) throws -> PublishOutcome {
        try folder.publish(Fixtures.batch([1, 2]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
    }

    /// Nothing or everything: the final file is absent or holds exactly the expected bytes, and
    /// a fetch sees zero batches or the whole one, never a file that is "not arrived".
    func expectNothingPartial(_ io: InMemoryFileIO, _ folder: DirectoryCloudFolder) throws {
        let path = folder.layout.logFile(zone, device: a, seq: 1)
        if let bytes = io.contents(path) { #expect(String(decoding: bytes, as: UTF8.self) == expectedText) }
        let fetched = try folder.fetchChanges(zone: zone, since: .empty)
        #expect(fetched.notArrived.isEmpty)
        #expect(fetched.batches.isEmpty || fetched.batches.map(\.batch) == [Fixtures.batch([1, 2])])
    }

    /// A step of a first publication, narrowed to one path where the step occurs more than once.
    struct Point: Sendable, CustomTestStringConvertible {
        var step: FileIOStep
        var pathContains: String?
        var testDescription: String { step.rawValue + (pathContains.map { " on \($0)" } ?? "") }
        /// The final fsync of the log file's folder: after it the file is durable.
        var isFinalFolderFsync: Bool { step == .fsyncDirectory && pathContains == Self.segment }
        static let segment = "/000000000000"
    }

    /// Creating the log folders (mkdir, then fsync of the parent), then the recipe itself.
    static let points: [Point] =
        [Point(step: .makeDirectory), Point(step: .fsyncDirectory, pathContains: "/log/")]
        + FileIOStep.publication.map { Point(step: $0, pathContains: $0 == .fsyncDirectory ? Point.segment : nil) }

    @Test(arguments: points)
    func aCrashAtAnyStepLeavesNothingPartialAndARetryPublishesIdenticalBytes(point: Point) throws {
        let (io, folder) = try prepared()
        io.crash(at: point.step, pathContains: point.pathContains)
        #expect(throws: InMemoryFileIO.SimulatedCrash(step: point.step)) { try publish(folder) }

        io.restart()
        try expectNothingPartial(io, folder)
        let outcome = try publish(folder)
        #expect(outcome == (point.isFinalFolderFsync ? .alreadyPublished : .published))
        #expect(logFileText(io, folder) == expectedText)
        #expect(try folder.fetchChanges(zone: zone, since: .empty).batches.map(\.batch) == [Fixtures.batch([1, 2])])
    }

    @Test(arguments: points)
    func aCrashThenAPowerLossLeavesNothingPartial(point: Point) throws {
        let (io, folder) = try prepared()
        io.crash(at: point.step, pathContains: point.pathContains)
        #expect(throws: InMemoryFileIO.SimulatedCrash.self) { try publish(folder) }
        io.powerLoss()
        try expectNothingPartial(io, folder)
        // The rename of a crash at the folder fsync was never made durable: the file is gone.
        #expect(io.contents(folder.layout.logFile(zone, device: a, seq: 1)) == nil)
        #expect(try publish(folder) == .published)
        io.powerLoss()
        #expect(logFileText(io, folder) == expectedText)
    }

    @Test(arguments: points)
    func aFailedStepIsAnErrorWithItsCodeAndLeavesNoTempFile(point: Point) throws {
        let (io, folder) = try prepared()
        io.fail(point.step, errno: ENOSPC, pathContains: point.pathContains)
        #expect {
            try publish(folder)
        } throws: { ($0 as? CloudError)?.code == .quotaExceeded && ($0 as? CloudError)?.errno == ENOSPC }
        #expect(!io.allPaths().contains { $0.contains(".tmp-") })
        // Only a failed folder fsync leaves the file visible (renamed, not durable), and whole.
        let visible = io.contents(folder.layout.logFile(zone, device: a, seq: 1)) != nil
        #expect(visible == point.isFinalFolderFsync)
        try expectNothingPartial(io, folder)
        #expect(try publish(folder) == (visible ? .alreadyPublished : .published))
        // The retry was acknowledged: it survives a power loss, folders included.
        io.powerLoss()
        #expect(logFileText(io, folder) == expectedText)
    }

    @Test(arguments: CloudErrorTests.table.map { $0.0 })
    func everyErrnoOfTheTableReachesTheCallerAsItsCode(number: Int32) throws {
        let (io, folder) = try prepared()
        io.fail(.write, errno: number)
        let expected = CloudErrorTests.table.first { $0.0 == number }!.1
        #expect {
            try publish(folder)
        } throws: { ($0 as? CloudError)?.code == expected && ($0 as? CloudError)?.errno == number }
        #expect(io.contents(folder.layout.logFile(zone, device: a, seq: 1)) == nil)
    }

    @Test func aCrashLeavesATempFileThatOnlyItsOwnerRemoves() throws {
        let (io, folder) = try prepared()
        io.crash(at: .rename)
        #expect(throws: InMemoryFileIO.SimulatedCrash.self) { try publish(folder) }
        io.restart()
        let segment = folder.layout.segmentDirectory(zone, device: a, seq: 1)
        let ours = try io.list(segment)
        #expect(ours.count == 1 && CloudName.temporaryFile(ours[0]) == a)
        // Another device's leftover temp file in the devices folder.
        let theirs = folder.layout.devicesDirectory + "/.bbbbbbbbbbbbbbbb.json.tmp-bbbbbbbbbbbbbbbb-1"
        io.plantDirectory(folder.layout.devicesDirectory)
        io.plantFile(theirs, [1])

        #expect(try folder.removeOwnTemporaryFiles(device: a) == [segment + "/" + ours[0]])
        #expect(try io.list(segment).isEmpty)
        #expect(io.contents(theirs) == [1])
        #expect(try folder.removeOwnTemporaryFiles(device: Fixtures.deviceB) == [theirs])
    }

    @Test func aReadOnlyFolderIsAPermissionFailure() throws {
        let (io, folder) = try prepared()
        io.fail(.createExclusive, errno: EROFS)
        #expect {
            try publish(folder)
        } throws: { ($0 as? CloudError)?.code == .permissionFailure }
    }

    @Test func anAcknowledgedPublicationSurvivesAPowerLoss() throws {
        let (io, folder) = try prepared()
        #expect(try publish(folder) == .published)
        io.powerLoss()
        // Every folder created on the way (log/<dev>/<seg>) was made durable too.
        #expect(logFileText(io, folder) == expectedText)
        #expect(try folder.fetchChanges(zone: zone, since: .empty).token == ChangeToken([a: 1]))
    }

    @Test func aPowerLossAfterAFailedFolderFsyncDropsTheFileAndTheNextPublishRecovers() throws {
        let (io, folder) = try prepared()
        io.fail(.fsyncDirectory, errno: EIO, pathContains: Point.segment)
        #expect(throws: CloudError.self) { try publish(folder) }
        #expect(io.contents(folder.layout.logFile(zone, device: a, seq: 1)) != nil)
        io.powerLoss()
        #expect(io.contents(folder.layout.logFile(zone, device: a, seq: 1)) == nil)
        #expect(try publish(folder) == .published)
        #expect(try folder.fetchChanges(zone: zone, since: .empty).batches.count == 1)
    }
}
