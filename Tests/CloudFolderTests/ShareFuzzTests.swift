import Crypto
import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import CloudFolder

/// A shared place's files, damaged (ARCHITECTURE §7, untrusted bytes never crash a decoder):
/// every reader of rules 17–20 returns a value or a `ShareError`, and what a damaged file makes
/// of the log is never more than the undamaged files say.
@Suite("Sharing: damaged files")
struct ShareFuzzTests {
    @Test func damagedSharedFilesAreRefusedNeverTrusted() throws {
        let run = FuzzRun("shared place files", defaultIterations: 3_000)
        var rng = SeededRandom(seed: run.seed)
        let ana = AccountIdentity.generate(name: "Ana")
        let bo = AccountIdentity.generate(name: "Bo")
        let io = InMemoryFileIO()
        let device = DeviceID("aaaaaaaaaaaaaaaa")!
        let place = SharedPlace(io: io, root: "/s", device: device)
        var state = try SharedPlace.create(io: io, root: "/s", device: device, owner: ana, hlc: HLC(millis: 1))
        state = try place.invite(bo.code, role: .readWrite, by: ana, after: state.log.checkpoint)
        try place.answer(.accepted, by: bo, after: nil)
        let entries = [Int64(1), 2].map { io.contents("/s/\(SharedPlace.entryPath($0))")! }
        let boxes = [ana, bo].map { io.contents("/s/\(SharedPlace.boxPath(epoch: 1, member: $0.memberID))")! }
        let batch = BatchSignature(signing: [1, 2, 3], share: state.share, entry: 2, by: bo)
        let corpus = entries + boxes + [io.contents("/s/shared.json")!, batch.json.canonicalBytes]
        let mutator = ByteMutator(
            corpus: corpus,
            extraTokens: ["owner", "admin", "removed", "cutoff", "\"entry\":2", ana.memberID, bo.memberID].map {
                Array($0.utf8)
            })
        // Undamaged, every file reads.
        #expect(try MembershipLog(share: state.share, owner: ana.code, files: entries).entries.count == 2)
        try batch.check([1, 2, 3], log: state.log, device: "bbbbbbbbbbbbbbbb", seq: 1)
        for iteration in 0..<run.iterations {
            let context = run.context(iteration)
            let which = rng.below(corpus.count)
            let bytes = mutator.mutate(corpus[which], using: &rng)
            switch which {
            case 0, 1:
                // A damaged entry: the log holds it only when it is the very file written.
                var files = entries
                files[which] = bytes
                if let log = try? MembershipLog(share: state.share, owner: ana.code, files: files) {
                    if log.entries.count > which {
                        #expect(bytes == entries[which], "\(context)")
                    }
                }
            case 2, 3:
                if let file = try? SignedFile(parsing: bytes, kind: .epochKey, share: state.share, path: "box"),
                    file.isSigned(by: ana.code)
                {
                    #expect(bytes == boxes[which - 2], "\(context)")
                    if let box = try? EpochKeyBox(body: file.body) {
                        _ = try? box.open(with: which == 2 ? ana : bo, share: state.share, epoch: 1)
                    }
                }
            case 4:
                if let file = try? SignedFile(parsing: bytes, kind: .shared, share: nil, path: "shared.json") {
                    #expect(!file.isSigned(by: ana.code) || bytes == corpus[4], "\(context)")
                }
            default:
                guard let json = try? JSONValue(parsing: Data(bytes)), let signature = try? BatchSignature(json: json)
                else { continue }
                if (try? signature.check([1, 2, 3], log: state.log, device: "bbbbbbbbbbbbbbbb", seq: 1)) != nil {
                    #expect(signature == batch, "\(context)")
                }
            }
        }
        // Garbage and re-signed bodies: entry 2 with a mutated body, signed again by the owner.
        for iteration in 0..<run.iterations / 3 {
            let context = run.context(run.iterations + iteration)
            let body = mutator.mutate(
                try SignedFile(parsing: entries[1], kind: .member, share: state.share, path: "e").body.canonicalBytes,
                using: &rng)
            guard let json = try? JSONValue(parsing: Data(body)), case .object = json else { continue }
            let resigned = SignedFile(kind: .member, share: state.share, body: json, signedBy: ana)
            if let log = try? MembershipLog(share: state.share, owner: ana.code, files: [entries[0], resigned.bytes]),
                log.entries.count == 2
            {
                // Whatever it says, it says it for entry 2 after entry 1 and keeps the owner.
                #expect(log.head.number == 2 && log.head.owner?.id == ana.memberID, "\(context)")
            }
            _ = try? MembershipLog(
                share: state.share, owner: ana.code, files: [Array(repeating: 0x7B, count: rng.below(64)), body])
        }
    }
}
