import Crypto
import Foundation
import NotesCore
import NotesTestSupport
import Synchronization
import Testing

@testable import CloudFolder

/// Notes in a shared place (SYNC-FORMAT rule 20): every file sealed with the epoch key and
/// signed by its writer's account; a reader applies only what the membership allows.
@Suite("Sharing: notes in a shared place, sealed and signed")
struct SharedNotesFolderTests {
    static let anaDevice = DeviceID("aaaaaaaaaaaaaaaa")!
    static let boDevice = DeviceID("bbbbbbbbbbbbbbbb")!
    static let cyDevice = DeviceID("cccccccccccccccc")!
    let ana = AccountIdentity.generate(name: "Ana")
    let bo = AccountIdentity.generate(name: "Bo")
    let cy = AccountIdentity.generate(name: "Cy")
    let io = InMemoryFileIO()

    func place(_ device: DeviceID = anaDevice) -> SharedPlace { SharedPlace(io: io, root: "/share", device: device) }

    /// Ana's share with Bo (read-write) and Cy (read-only), both accepted.
    func threeMembers() throws -> ShareState {
        var state = try SharedPlace.create(
            io: io, root: "/share", device: Self.anaDevice, owner: ana, hlc: HLC(millis: 1))
        state = try place().invite(bo.code, role: .readWrite, by: ana, after: state.log.checkpoint)
        state = try place().invite(cy.code, role: .readOnly, by: ana, after: state.log.checkpoint)
        try place(Self.boDevice).answer(.accepted, by: bo, after: nil)
        try place(Self.cyDevice).answer(.accepted, by: cy, after: nil)
        state = try place().read(after: state.log.checkpoint)
        let zone = try #require(ZoneID(NotebookSlug.sharedZone(share: state.share)))
        _ = try folder(ana, Self.anaDevice).createZone(
            ZoneInfo(zone: zone, displayName: "Trip", createdBy: Self.anaDevice), hlc: Fixtures.hlc)
        return state
    }

    func folder(_ identity: AccountIdentity, _ device: DeviceID) throws -> DirectoryCloudFolder {
        let place = place(device)
        let folder = try place.notesFolder(try place.read(), identity: identity)
        _ = try folder.openContainer(boundTo: nil)
        return folder
    }

    var zone: ZoneID { ZoneID(NotebookSlug.sharedZone(share: (try? place().read().share) ?? ""))! }

    func publish(_ n: Int, by folder: DirectoryCloudFolder, _ device: DeviceID, seq: Int64) throws {
        let revision = Fixtures.revision(n, device: device)
        _ = try folder.publish(
            ChangeBatch(records: [ChangeRecord(revision)]), zone: zone, device: device, seq: seq, hlc: revision.hlc)
    }

    @Test("a read-write member's batch reaches every member; the place holds no plaintext")
    func writerReachesMembers() throws {
        _ = try threeMembers()
        try publish(1, by: try folder(bo, Self.boDevice), Self.boDevice, seq: 1)
        for (identity, device) in [(ana, Self.anaDevice), (cy, Self.cyDevice)] {
            let fetched = try folder(identity, device).fetchChanges(zone: zone, since: .empty)
            #expect(
                fetched.batches.flatMap(\.batch.records).map(\.revision.recordID) == [Fixtures.revision(1).recordID])
            #expect(fetched.notArrived.isEmpty)
        }
        for path in io.allPaths() where path.contains("/log/") {
            guard let bytes = io.contents(path) else { continue }
            #expect(!String(decoding: bytes, as: UTF8.self).contains("note 1"))
        }
    }

    @Test("a read-only member's batch, written with the epoch key they hold, is refused and named")
    func readOnlyForgeryRefused() throws {
        _ = try threeMembers()
        try publish(2, by: try folder(cy, Self.cyDevice), Self.cyDevice, seq: 1)
        let fetched = try folder(ana, Self.anaDevice).fetchChanges(zone: zone, since: .empty)
        #expect(fetched.batches.isEmpty)
        #expect(fetched.notArrived.map(\.reason).contains { $0.contains("refused") && $0.contains("read-only") })
    }

    @Test("a file sealed with the epoch key but unsigned, or signed by someone not a member, is refused")
    func unsignedRefused() throws {
        let state = try threeMembers()
        // Cy seals a batch under Bo's device with the epoch key, with no signature line at all.
        let key = try place().epochKey(1, for: cy, state: state)
        let seal = FolderSeal(keyring: Keyring(key), containerID: state.share)
        let path = try folder(ana, Self.anaDevice).layout.logFile(zone, device: Self.boDevice, seq: 1)
        let revision = Fixtures.revision(3, device: Self.boDevice)
        let envelope = Envelope(
            kind: .changes, zone: zone.rawValue, device: Self.boDevice.rawValue, seq: 1, hlc: revision.hlc,
            body: try ChangeBatch(records: [ChangeRecord(revision)]).body())
        var directory = ""
        for name in path.split(separator: "/").dropLast() {
            directory += "/" + name
            io.plantDirectory(directory)
        }
        io.plantFile(path, seal.seal(envelope.encoded, name: String(path.dropFirst("/share/".count))))
        // And a stranger signs one under their own device.
        let stranger = AccountIdentity.generate(name: "Eve")
        let forged = DirectoryCloudFolder(
            sharedPlace: "/share", io: io, seal: seal,
            sharing: SharedAccess(log: state.log, identity: stranger))
        try publish(4, by: forged, Self.cyDevice, seq: 1)
        let fetched = try folder(ana, Self.anaDevice).fetchChanges(zone: zone, since: .empty)
        #expect(fetched.batches.isEmpty)
        let reasons = fetched.notArrived.map(\.reason)
        #expect(reasons.contains { $0.contains("no signature") }, "\(reasons)")
        #expect(reasons.contains { $0.contains("not a member") })
    }

    @Test(
        "after a removal: what the cutoff covers stays; the removed member's later writes are refused and the new key is not theirs"
    )
    func removal() throws {
        var state = try threeMembers()
        try publish(5, by: try folder(bo, Self.boDevice), Self.boDevice, seq: 1)
        state = try place().remove(bo.memberID, by: ana, cutoff: [Self.boDevice.rawValue: 1], after: nil)
        // Bo, still on the old membership, writes again with the key he holds.
        let stale = DirectoryCloudFolder(
            sharedPlace: "/share", io: io,
            seal: FolderSeal(
                keyring: Keyring(try place().epochKey(1, for: ana, state: state)), containerID: state.share),
            sharing: SharedAccess(
                log: try MembershipLog(share: state.share, owner: ana.code, files: entries(2)), identity: bo))
        try publish(6, by: stale, Self.boDevice, seq: 2)
        let fetched = try folder(ana, Self.anaDevice).fetchChanges(zone: zone, since: .empty)
        #expect(fetched.batches.flatMap(\.batch.records).map(\.revision.recordID) == [Fixtures.revision(5).recordID])
        #expect(fetched.notArrived.map(\.reason).contains { $0.contains("after their removal") })
        // Ana's next batch is sealed with the new key, which Bo cannot open.
        try publish(7, by: try folder(ana, Self.anaDevice), Self.anaDevice, seq: 1)
        #expect(throws: ShareError.self) { try place(Self.boDevice).notesFolder(state, identity: bo) }
        #expect(throws: CloudError.self) { try stale.fetchChanges(zone: zone, since: ChangeToken([Self.boDevice: 2])) }
    }

    /// The membership files 1…n as they are in the place.
    func entries(_ count: Int64) throws -> [[UInt8]] {
        try (1...count).map { try #require(io.contents("/share/" + SharedPlace.entryPath($0))) }
    }

    @Test("a folder read before a removal takes up the new epoch's key at its next pass, with no restart")
    func followsARemovalAtTheNextPass() throws {
        _ = try threeMembers()
        // Cy's engine started before the removal: its folder holds epoch 1's key only.
        let running = try folder(cy, Self.cyDevice)
        _ = try place().remove(bo.memberID, by: ana, cutoff: [:], after: nil)
        try publish(6, by: try folder(ana, Self.anaDevice), Self.anaDevice, seq: 1)
        #expect {
            try running.fetchChanges(zone: zone, since: .empty)
        } throws: { error in
            (error as? CloudError)?.message.contains("epoch 2") == true
        }
        // The next pass reads the membership again and opens what Ana wrote after the removal.
        let pass = try #require(running.scopedToOnePass() as? DirectoryCloudFolder)
        let fetched = try pass.fetchChanges(zone: zone, since: .empty)
        #expect(fetched.batches.flatMap(\.batch.records).map(\.revision.recordID) == [Fixtures.revision(6).recordID])
        #expect(fetched.notArrived.isEmpty)
    }

    /// Ana's share after Cy's removal, with a note written in each epoch (8 by Bo before it, 9
    /// by Ana after), and Dee, not invited yet.
    func twoEpochsAndANewcomer() throws -> (dee: AccountIdentity, device: DeviceID) {
        _ = try threeMembers()
        try publish(8, by: try folder(bo, Self.boDevice), Self.boDevice, seq: 1)
        _ = try place().remove(cy.memberID, by: ana, cutoff: [:], after: nil)
        try publish(9, by: try folder(ana, Self.anaDevice), Self.anaDevice, seq: 1)
        return (AccountIdentity.generate(name: "Dee"), try #require(DeviceID("dddddddddddddddd")))
    }

    /// What Dee, invited, fetches of the notebook: the notes, and how many files did not open.
    func newcomerFetches(_ dee: AccountIdentity, _ device: DeviceID) throws -> (Set<UUID>, notArrived: Int) {
        let fetched = try folder(dee, device).fetchChanges(zone: zone, since: .empty)
        return (Set(fetched.batches.flatMap(\.batch.records).map(\.revision.recordID)), fetched.notArrived.count)
    }

    @Test("a member invited after a removal reads what was written before it, as the others do")
    func newcomerAfterARemovalReadsEarlierEpochs() throws {
        let (dee, device) = try twoEpochsAndANewcomer()
        _ = try place().invite(dee.code, role: .readOnly, by: ana, after: nil)
        try place(device).answer(.accepted, by: dee, after: nil)
        let (received, notArrived) = try newcomerFetches(dee, device)
        #expect(received == [Fixtures.revision(8).recordID, Fixtures.revision(9).recordID])
        #expect(notArrived == 0)
        // Cy, removed, holds no key of the epoch Dee was invited in, nor a past box of it.
        #expect(io.allPaths().filter { $0.contains(cy.memberID) && $0.hasSuffix(".past.json") }.isEmpty)
    }

    @Test(
        "a file planted where a newcomer's box will go keeps no key from them: the box goes to a spare name",
        arguments: [false, true])
    func aPlantedBoxIsPassedOver(past: Bool) throws {
        let (dee, device) = try twoEpochsAndANewcomer()
        // Bo, a writer of the place, plants a file where Dee's box of the current epoch (2), or
        // her past box of epoch 1, will go.
        let planted =
            "/share/"
            + (past
                ? SharedPlace.pastBoxPath(epoch: 1, member: dee.memberID)
                : SharedPlace.boxPath(epoch: 2, member: dee.memberID))
        io.plantFile(planted, Array("not a box\n".utf8))
        _ = try place().invite(dee.code, role: .readOnly, by: ana, after: nil)
        try place(device).answer(.accepted, by: dee, after: nil)
        let (received, notArrived) = try newcomerFetches(dee, device)
        #expect(received == [Fixtures.revision(8).recordID, Fixtures.revision(9).recordID])
        #expect(notArrived == 0)
        #expect(io.contents(planted) == Array("not a box\n".utf8))
        let spares = io.allPaths().filter {
            SharedPlace.isSpareBoxName(String($0.split(separator: "/").last ?? ""), member: dee.memberID)
        }
        #expect(spares.count == 1)
        // Inviting her again finds the spare: nothing more to write.
        #expect(throws: ShareError.self) { try place().invite(dee.code, role: .readOnly, by: ana, after: nil) }
    }

    @Test("an earlier epoch's box replaced after the invitation closes that epoch only; inviting again mends it")
    func aReplacedPastBoxClosesOnlyItsEpoch() throws {
        let (dee, device) = try twoEpochsAndANewcomer()
        _ = try place().invite(dee.code, role: .readOnly, by: ana, after: nil)
        try place(device).answer(.accepted, by: dee, after: nil)
        // On a folder a writer can rename a file over another: Bo replaces Dee's past box.
        io.plantFile("/share/" + SharedPlace.pastBoxPath(epoch: 1, member: dee.memberID), Array("not a box\n".utf8))
        var (received, notArrived) = try newcomerFetches(dee, device)
        #expect(received == [Fixtures.revision(9).recordID])
        #expect(notArrived > 0)
        _ = try place().invite(dee.code, role: .readOnly, by: ana, after: nil)
        (received, notArrived) = try newcomerFetches(dee, device)
        #expect(received == [Fixtures.revision(8).recordID, Fixtures.revision(9).recordID])
        #expect(notArrived == 0)
    }

    @Test("a pass whose membership has not grown reads one file of it, not the whole log")
    func unchangedMembershipCostsOneRead() throws {
        _ = try threeMembers()
        let running = try folder(cy, Self.cyDevice)
        let before = io.callCount(.read) + io.callCount(.list) + io.callCount(.kind)
        _ = running.scopedToOnePass()
        #expect(io.callCount(.read) + io.callCount(.list) + io.callCount(.kind) - before <= 2)
    }

    @Test("a running engine's pass tells its owner of a new membership, a removal of this account too")
    func aPassReportsTheNewMembership() throws {
        _ = try threeMembers()
        let seen = Mutex<[ShareState]>([])
        let place = place(Self.cyDevice)
        let running = try place.notesFolder(
            try place.read(), identity: cy, onMembership: { state in seen.withLock { $0.append(state) } })
        _ = running.scopedToOnePass()
        #expect(seen.withLock { $0.isEmpty })
        _ = try self.place().remove(cy.memberID, by: ana, cutoff: [:], after: nil)
        _ = running.scopedToOnePass()
        let states = seen.withLock { $0 }
        #expect(states.count == 1)
        #expect(states.first?.log.head.member(cy.memberID)?.status == .removed)
    }
}
