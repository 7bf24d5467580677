import Crypto
import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import CloudFolder

/// A shared place's membership with three accounts (SYNC-FORMAT rules 17–19): what each of
/// them can check, open and write, and what a hostile writer of the place cannot do.
@Suite("Sharing: a shared place's membership")
struct SharedPlaceTests {
    static let device = DeviceID("aaaaaaaaaaaaaaaa")!
    let ana = AccountIdentity.generate(name: "Ana")
    let bo = AccountIdentity.generate(name: "Bo")
    let cy = AccountIdentity.generate(name: "Cy")
    let io = InMemoryFileIO()
    var place: SharedPlace { SharedPlace(io: io, root: "/share", device: Self.device) }

    /// Ana's share with Bo (read-write, accepted) and Cy (read-only, invited).
    func threeMembers() throws -> ShareState {
        var state = try SharedPlace.create(io: io, root: "/share", device: Self.device, owner: ana, hlc: HLC(millis: 1))
        state = try place.invite(bo.code, role: .readWrite, by: ana, after: state.log.checkpoint)
        state = try place.invite(cy.code, role: .readOnly, by: ana, after: state.log.checkpoint)
        try place.answer(.accepted, by: bo, after: nil)
        return try place.read(after: state.log.checkpoint)
    }

    @Test("invite and accept: the member checks the owner, opens the owner's epoch key, and is listed accepted")
    func inviteAndAccept() throws {
        let state = try threeMembers()
        #expect(state.owner.fingerprint == ana.code.fingerprint)
        #expect(state.log.head.number == 3 && state.log.head.epoch == 1)
        #expect(state.shownStatus(of: ana.memberID) == "accepted")
        #expect(state.shownStatus(of: bo.memberID) == "accepted")
        #expect(state.shownStatus(of: cy.memberID) == "invited")
        #expect(state.log.canWrite(bo.memberID, at: 3) && !state.log.canWrite(cy.memberID, at: 3))
        #expect(state.log.canInvite(ana.memberID, at: 3) && !state.log.canInvite(bo.memberID, at: 3))
        let anaKey = try place.epochKey(1, for: ana, state: state)
        #expect(try place.epochKey(1, for: bo, state: state) == anaKey)
        #expect(try place.answer(.accepted, by: cy, after: nil).key == anaKey)
        #expect(try place.read().shownStatus(of: cy.memberID) == "accepted")
        try place.answer(.left, by: cy, after: nil)
        #expect(try place.read().shownStatus(of: cy.memberID) == "left")
        #expect(state.problems.isEmpty)
    }

    @Test("an entry forged by a read-only member is refused, and the log ends before it")
    func forgedEntryRefused() throws {
        let state = try threeMembers()
        // Cy (read-only) makes herself admin and signs the entry with her own key.
        var members = state.log.head.members.filter { $0.id != cy.memberID }
        members.append(ShareMember(code: cy.code, role: .admin, status: .accepted))
        let forged = MembershipEntry(
            number: 4, epoch: 1, epochKeyID: state.log.head.epochKeyID, members: members,
            previous: state.log.checkpoint.sha256)
        io.plantFile(
            "/share/members/000000000004.json",
            SignedFile(kind: .member, share: state.share, body: forged.body, signedBy: cy).bytes)
        let read = try place.read(after: state.log.checkpoint)
        #expect(read.log.head.number == 3)
        #expect(read.log.head.member(cy.memberID)?.role == .readOnly)
        #expect(read.problems == ["members/000000000004.json is not signed by the owner or an admin of entry 3"])
        // The owner cannot write entry 4 over it, and is told so.
        #expect(throws: ShareError.self) {
            try place.invite(AccountIdentity.generate(name: "Dee").code, role: .readOnly, by: ana, after: nil)
        }
        // Only the owner changes members in this build, whatever the role.
        #expect(throws: ShareError.self) {
            try place.remove(ana.memberID, by: cy, after: nil)
        }
    }

    @Test("an admin's entry is accepted by readers (the format allows it), and a removed admin's is not")
    func adminEntry() throws {
        var state = try threeMembers()
        let dee = AccountIdentity.generate(name: "Dee")
        state = try place.invite(dee.code, role: .admin, by: ana, after: state.log.checkpoint)
        var members = state.log.head.members
        members.append(ShareMember(code: AccountIdentity.generate(name: "Eve").code, role: .readOnly, status: .invited))
        let entry = MembershipEntry(
            number: 5, epoch: 1, epochKeyID: state.log.head.epochKeyID, members: members,
            previous: state.log.checkpoint.sha256)
        io.plantFile(
            "/share/members/000000000005.json",
            SignedFile(kind: .member, share: state.share, body: entry.body, signedBy: dee).bytes)
        let read = try place.read(after: state.log.checkpoint)
        #expect(read.log.head.number == 5 && read.problems.isEmpty)
    }

    @Test("on a folder (no write-once) an admin's invitation is refused in one sentence, and nothing is written")
    func adminRefusedOnAFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("share-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = SharedPlace(io: PosixFileIO(), root: root, device: Self.device)
        let dee = AccountIdentity.generate(name: "Dee")
        var state = try SharedPlace.create(
            io: PosixFileIO(), root: root, device: Self.device, owner: ana, hlc: HLC(millis: 1))
        state = try folder.invite(dee.code, role: .admin, by: ana, after: state.log.checkpoint)
        try folder.answer(.accepted, by: dee, after: nil)
        #expect {
            try folder.invite(AccountIdentity.generate(name: "Eve").code, role: .readOnly, by: dee, after: nil)
        } throws: { error in
            (error as? ShareError)?.message.contains("in a folder only the owner (Ana") == true
        }
        #expect(try folder.read().log.head.number == 2)
        #expect(!FileManager.default.fileExists(atPath: root + "/" + SharedPlace.entryPath(3)))
    }

    @Test(
        "a tampered entry is refused: as a broken log to a new reader, as forked or rolled back to one who checked it")
    func tamperedEntryRefused() throws {
        let state = try threeMembers()
        let path = "/share/members/000000000003.json"
        let original = try #require(io.contents(path))
        // Cy's role changed to read-write in the file, signature unchanged.
        let tampered = String(decoding: original, as: UTF8.self).replacingOccurrences(
            of: "\"role\":\"read-only\"", with: "\"role\":\"read-write\"")
        #expect(Array(tampered.utf8) != original)
        try io.remove(path)
        io.plantFile(path, Array(tampered.utf8))
        let fresh = try place.read()
        #expect(fresh.log.head.number == 2 && fresh.log.head.member(cy.memberID) == nil)
        #expect(fresh.problems.first?.hasPrefix("members/000000000003.json is not signed") == true)
        #expect(throws: ShareError.self) { try place.read(after: state.log.checkpoint) }
        do {
            _ = try place.read(after: state.log.checkpoint)
        } catch {
            #expect(error.code == .rolledBack)
        }
        // A correctly signed other version of entry 3 (written by the owner elsewhere) is a fork.
        try io.remove(path)
        let other = MembershipEntry(
            number: 3, epoch: 1, epochKeyID: fresh.log.head.epochKeyID,
            members: fresh.log.head.members + [ShareMember(code: cy.code, role: .admin, status: .invited)],
            previous: fresh.log.checkpoint.sha256)
        io.plantFile(path, SignedFile(kind: .member, share: state.share, body: other.body, signedBy: ana).bytes)
        #expect(throws: ShareError(.forked, Self.forkMessage)) { try place.read(after: state.log.checkpoint) }
    }

    static let forkMessage =
        "the membership list was changed: its entry 3 is not the one this device checked (two versions of the list, "
        + "or tampering); nothing from the place is applied"

    @Test("deleting the newest entry does not bring a removed member back for a reader who saw the removal")
    func rollbackRefused() throws {
        var state = try threeMembers()
        state = try place.remove(bo.memberID, by: ana, after: state.log.checkpoint)
        #expect(state.log.head.member(bo.memberID)?.status == .removed && state.log.head.epoch == 2)
        let cyCheckpoint = try place.read().log.checkpoint
        try io.remove("/share/members/000000000004.json")
        #expect(
            throws: ShareError(
                .rolledBack,
                "the membership list was rolled back: this device has checked entry 4, and now it ends at entry 3; "
                    + "nothing from the place is applied")
        ) { try place.read(after: cyCheckpoint) }
    }

    @Test("a removed member cannot open the new epoch's key; the members who remain can")
    func removedMemberLocksOut() throws {
        var state = try threeMembers()
        let oldKey = try place.epochKey(1, for: bo, state: state)
        state = try place.remove(bo.memberID, by: ana, after: state.log.checkpoint)
        let newKey = try place.epochKey(2, for: ana, state: state)
        #expect(newKey != oldKey)
        #expect(try place.epochKey(2, for: cy, state: state) == newKey)
        #expect(throws: ShareError.self) { try place.epochKey(2, for: bo, state: state) }
        // Bo copies Cy's box to his own name: it is Cy's, and does not open for him.
        let cyBox = try #require(io.contents("/share/epochs/000000000002/\(cy.memberID).json"))
        io.plantFile("/share/epochs/000000000002/\(bo.memberID).json", cyBox)
        #expect(throws: ShareError.self) { try place.epochKey(2, for: bo, state: state) }
        // And he can no longer answer.
        #expect(throws: ShareError.self) { try place.answer(.accepted, by: bo, after: nil) }
        // What he had stays his: the old epoch's key still opens for him.
        #expect(try place.epochKey(1, for: bo, state: state) == oldKey)
    }

    @Test("a removal whose boxes' names another writer took first still gives the new key to everyone who remains")
    func removalPassesOverPlantedBoxes() throws {
        let state = try threeMembers()
        // Bo, about to be removed, plants files where Ana's and Cy's boxes of epoch 2 will go.
        io.plantDirectory("/share/epochs/000000000002")
        for member in [ana.memberID, cy.memberID] {
            io.plantFile("/share/epochs/000000000002/\(member).json", Array("not a box\n".utf8))
        }
        let after = try place.remove(bo.memberID, by: ana, after: state.log.checkpoint)
        let key = try place.epochKey(2, for: ana, state: after)
        #expect(try place.epochKey(2, for: cy, state: after) == key)
        #expect(MembershipEntry.keyID(of: key) == after.log.head.epochKeyID)
        #expect(throws: ShareError.self) { try place.epochKey(2, for: bo, state: after) }
    }

    @Test("a removal or an invitation cut short anywhere is finished by running it again, with one key")
    func cutShortAndRunAgain() throws {
        var state = try threeMembers()
        // Cut before Cy's box: Ana's box and the entry are there, Cy waits for the key.
        io.fail(.createExclusive, errno: EIO, pathContains: "epochs/000000000002/.\(cy.memberID)")
        #expect(throws: ShareError.self) { try place.remove(bo.memberID, by: ana, after: state.log.checkpoint) }
        state = try place.read(after: state.log.checkpoint)
        #expect(state.log.head.epoch == 2)
        #expect(throws: ShareError.self) { try place.epochKey(2, for: cy, state: state) }
        state = try place.remove(bo.memberID, by: ana, after: state.log.checkpoint)
        #expect(try place.epochKey(2, for: cy, state: state) == place.epochKey(2, for: ana, state: state))
        #expect(throws: ShareError.self) { try place.remove(bo.memberID, by: ana, after: state.log.checkpoint) }

        // Cut before the entry of a second removal: Ana's box of epoch 3 is there; run again, its key is kept.
        io.fail(.createExclusive, errno: EIO, pathContains: "members/.000000000005")
        #expect(throws: ShareError.self) { try place.remove(cy.memberID, by: ana, after: state.log.checkpoint) }
        state = try place.remove(cy.memberID, by: ana, after: state.log.checkpoint)
        #expect(state.log.head.epoch == 3 && state.log.head.number == 5)
        _ = try place.epochKey(3, for: ana, state: state)

        // Cut before an invitee's box: inviting again writes it, and they can accept.
        let dee = AccountIdentity.generate(name: "Dee")
        io.fail(.createExclusive, errno: EIO, pathContains: ".\(dee.memberID)")
        #expect(throws: ShareError.self) { try place.invite(dee.code, role: .readOnly, by: ana, after: nil) }
        #expect(throws: ShareError.self) { try place.answer(.accepted, by: dee, after: nil) }
        state = try place.invite(dee.code, role: .readOnly, by: ana, after: nil)
        #expect(try place.answer(.accepted, by: dee, after: nil).key == place.epochKey(3, for: ana, state: state))
        #expect(throws: ShareError.self) { try place.invite(dee.code, role: .readOnly, by: ana, after: nil) }
    }

    @Test("an invitation for someone else cannot be opened or accepted")
    func invitationForSomeoneElse() throws {
        let state = try threeMembers()
        let dee = AccountIdentity.generate(name: "Dee")
        #expect(throws: ShareError.self) { try place.answer(.accepted, by: dee, after: nil) }
        let cyBoxBytes = try #require(io.contents("/share/epochs/000000000001/\(cy.memberID).json"))
        let file = try SignedFile(parsing: cyBoxBytes, kind: .epochKey, share: state.share, path: "box")
        let box = try EpochKeyBox(body: file.body)
        #expect(throws: ShareError.self) { try box.open(with: dee, share: state.share, epoch: 1) }
        #expect(throws: ShareError.self) { try box.open(with: bo, share: state.share, epoch: 1) }
        #expect(try box.open(with: cy, share: state.share, epoch: 1) == place.epochKey(1, for: ana, state: state))
    }

    @Test("on a directory: a place is created only where nothing is, and an older build refuses it as format 7")
    func onADirectory() throws {
        let root = TempDirectory.make()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let io = PosixFileIO()
        let place = SharedPlace(io: io, root: root + "/place", device: Self.device)
        var state = try SharedPlace.create(
            io: io, root: place.root, device: Self.device, owner: ana, hlc: HLC(millis: 1))
        state = try place.invite(bo.code, role: .readWrite, by: ana, after: state.log.checkpoint)
        let accepted = try place.answer(.accepted, by: bo, after: nil)
        #expect(accepted.key == (try place.epochKey(1, for: ana, state: state)))
        #expect(accepted.state.shownStatus(of: bo.memberID) == "accepted")
        #expect(throws: ShareError.self) {
            try SharedPlace.create(io: io, root: place.root, device: Self.device, owner: cy, hlc: HLC(millis: 1))
        }
        // The cloud folder code of this and older builds: "format 7", never an empty folder.
        let folder = DirectoryCloudFolder(root: place.root)
        #expect(throws: CloudError.self) { try folder.readContainer(boundTo: nil) }
        do {
            _ = try folder.readContainer(boundTo: nil)
        } catch let error as CloudError {
            #expect(error.code == .incompatibleVersion && error.message.contains("format 7"))
        }
        // A folder holding something else is not taken for a share.
        try FileManager.default.createDirectory(atPath: root + "/other", withIntermediateDirectories: true)
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: root + "/other/container.json"))
        #expect(throws: ShareError.self) {
            try SharedPlace(io: io, root: root + "/other", device: Self.device).read()
        }
    }
}
