import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import CloudFolder

/// A shared place on a bucket (SeaweedFS on loopback): the same files and checks as on a
/// folder (SYNC-FORMAT "Shared containers"), write-once by `If-None-Match: *`.
@Suite("Sharing: a shared place on S3", .serialized)
struct SharedPlaceS3Tests {
    static let device = DeviceID("abcdefghijklmn27")!

    @Test("create, invite, accept and remove on a bucket; a deleted newest entry is refused as a rollback")
    func membershipOnABucket() async throws {
        let io = try await S3Fixture.io()
        let (ana, bo) = (AccountIdentity.generate(name: "Ana"), AccountIdentity.generate(name: "Bo"))
        let place = SharedPlace(io: io, root: "/share", device: Self.device)
        var state = try SharedPlace.create(io: io, root: "/share", device: Self.device, owner: ana, hlc: HLC(millis: 1))
        state = try place.invite(bo.code, role: .readWrite, by: ana, after: state.log.checkpoint)
        let accepted = try place.answer(.accepted, by: bo, after: nil)
        #expect(accepted.key == (try place.epochKey(1, for: ana, state: state)))
        #expect(accepted.state.shownStatus(of: bo.memberID) == "accepted")
        // A second writer of an entry already there is refused by the store, never an overwrite.
        #expect(throws: ShareError.self) {
            try place.publish(Array("other\n".utf8), at: SharedPlace.entryPath(2))
        }
        state = try place.remove(bo.memberID, by: ana, after: state.log.checkpoint)
        #expect(throws: ShareError.self) { try place.epochKey(2, for: bo, state: state) }
        try io.remove("/share/" + SharedPlace.entryPath(3))
        #expect(throws: ShareError.self) { try place.read(after: state.log.checkpoint) }
    }

    @Test("an admin who accepted invites and removes on a bucket; readers take the entries they signed")
    func adminWritesEntriesOnABucket() async throws {
        let io = try await S3Fixture.io()
        let root = "/share-\(UUID().uuidString.lowercased())"
        let (ana, bo, cy) = (
            AccountIdentity.generate(name: "Ana"), AccountIdentity.generate(name: "Bo"),
            AccountIdentity.generate(name: "Cy")
        )
        let place = SharedPlace(io: io, root: root, device: Self.device)
        var state = try SharedPlace.create(io: io, root: root, device: Self.device, owner: ana, hlc: HLC(millis: 1))
        state = try place.invite(bo.code, role: .admin, by: ana, after: state.log.checkpoint)
        // Invited, not yet accepted: not an admin yet.
        #expect(throws: ShareError.self) { try place.invite(cy.code, role: .readOnly, by: bo, after: nil) }
        try place.answer(.accepted, by: bo, after: nil)
        state = try place.invite(cy.code, role: .readOnly, by: bo, after: nil)
        let accepted = try place.answer(.accepted, by: cy, after: nil)
        #expect(accepted.key == (try place.epochKey(1, for: ana, state: state)))
        // Ana reads the entry Bo signed; Bo removes Cy, and the new key reaches Ana, not Cy.
        state = try place.remove(cy.memberID, by: bo, after: nil)
        let read = try place.read(after: nil)
        #expect(read.log.head.number == 4 && read.problems.isEmpty, "\(read.problems)")
        #expect(try place.epochKey(2, for: ana, state: read) == (try place.epochKey(2, for: bo, state: state)))
        #expect(throws: ShareError.self) { try place.epochKey(2, for: cy, state: read) }
        // A read-write member is never a writer of entries.
        state = try place.invite(cy.code, role: .readWrite, by: ana, after: nil)
        try place.answer(.accepted, by: cy, after: nil)
        #expect(throws: ShareError.self) {
            try place.invite(AccountIdentity.generate(name: "Eve").code, role: .admin, by: cy, after: nil)
        }
    }
}
