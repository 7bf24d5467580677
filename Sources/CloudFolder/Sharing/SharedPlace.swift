import Crypto
import Foundation
import NotesCore

/// A shared place on any `FileIO` (a folder, the in-memory twin, a bucket): its layout, and
/// reading it as a member checks it (SYNC-FORMAT rules 17 and 18, "Shared containers").
///
/// Every file is write-once (rule 1): a path that exists with other bytes refuses the write.
/// Changing the membership is `SharedPlace+Membership.swift`.
public struct SharedPlace: Sendable {
    /// The envelope format of a shared place's `container.json` (rule 17): every build before
    /// sharing refuses it as written by a newer program.
    public static let containerFormat: Int64 = 7
    static let numberWidth = 12

    public let io: any FileIO
    /// The place, an absolute path without a trailing slash (a prefix on a bucket).
    public let root: String
    /// The device writing (the temp names of rule 2 carry it).
    public let device: DeviceID

    public init(io: any FileIO, root: String, device: DeviceID) {
        self.io = io
        self.root = root
        self.device = device
    }

    // MARK: Layout

    static func number(_ value: Int64) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, numberWidth - digits.count)) + digits
    }

    static let containerPath = "container.json"
    static let sharedPath = "shared.json"
    static func entryPath(_ entry: Int64) -> String { "members/\(number(entry)).json" }
    static func boxPath(epoch: Int64, member: String) -> String { "epochs/\(number(epoch))/\(member).json" }
    /// The box of an epoch that ended before `member` was invited, written with their invitation.
    static func pastBoxPath(epoch: Int64, member: String) -> String { "epochs/\(number(epoch))/\(member).past.json" }
    /// A spare box: written under a name of its own (`tag`, 16 random lowercase hex digits) when
    /// another file took the box's usual name first, so no writer of the place can keep a key
    /// from a member by planting a file where their box will go.
    static func spareBoxPath(epoch: Int64, member: String, tag: String) -> String {
        "epochs/\(number(epoch))/\(member).\(tag).json"
    }
    /// Whether `name`, in an epoch's folder, is a spare box's name for `member`.
    static func isSpareBoxName(_ name: String, member: String) -> Bool {
        let tag = name.utf8.dropFirst(member.utf8.count + 1).dropLast(".json".utf8.count)
        return name.hasPrefix(member + ".") && name.hasSuffix(".json") && tag.count == 16
            && tag.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }
    static func answerPath(member: String, entry: Int64, answer: ShareAnswer) -> String {
        "answers/\(member)-\(number(entry))-\(answer.rawValue).json"
    }

    func path(_ relative: String) -> String { root + "/" + relative }

    // MARK: I/O

    /// Runs a storage call, turning its failure into one sentence naming what was being done.
    func storage<T>(_ what: String, _ body: () throws -> T) throws(ShareError) -> T {
        do {
            return try body()
        } catch let error as CloudError {
            throw ShareError(
                error.code == .serverRecordChanged ? .placeTaken : .storage, "\(what) failed: \(error.message)")
        } catch {
            throw ShareError(.storage, "\(what) failed: \(error)")
        }
    }

    func read(_ relative: String) throws(ShareError) -> [UInt8]? {
        try storage("reading \(relative)") { try io.readIfPresent(path(relative), maxBytes: SignedFile.maxBytes) }
    }

    /// Publishes a write-once file (rules 1 and 2), creating its folders. The same bytes already
    /// there: done (a retry). Other bytes: `placeTaken`, never an overwrite.
    func publish(_ bytes: [UInt8], at relative: String) throws(ShareError) {
        if let existing = try read(relative) {
            guard existing == bytes else {
                throw ShareError(.placeTaken, "\(path(relative)) already holds another file; it is never overwritten")
            }
            return
        }
        let folders = relative.split(separator: "/").dropLast()
        try storage("writing \(relative)") {
            var folder = root
            for name in folders {
                folder += "/" + name
                try io.ensureDirectory(folder, syncExisting: true)
            }
            try io.writeAtomically(bytes, to: path(relative), device: device)
        }
    }

    // MARK: Creating

    /// Creates a share at an empty place, owned by `owner`: `shared.json`, entry 1 (the owner
    /// alone, epoch 1), the owner's box of the first epoch key, and `container.json` last, so a
    /// creation cut short is no shared place.
    public static func create(
        io: any FileIO, root: String, device: DeviceID, owner: AccountIdentity, hlc: HLC
    ) throws(ShareError) -> ShareState {
        let place = SharedPlace(io: io, root: root, device: device)
        let names = try place.storage("reading the place") { try io.listIfPresent(root) }
        guard names.allSatisfy({ $0.hasPrefix(".") }) else {
            throw ShareError(.placeTaken, "\(root) is not empty; a share is created only in an empty folder")
        }
        try place.storage("creating the place") { try io.ensureDirectory(root, syncExisting: true) }
        let share = UUID().lowercasedString
        let code = owner.code
        let shared = SignedFile(
            kind: .shared, share: share, body: .object(["owner": .string(code.text)]), signedBy: owner)
        try place.publish(shared.bytes, at: sharedPath)
        let key = SymmetricKey(size: .bits256)
        let first = MembershipEntry(
            number: 1, epoch: 1, epochKeyID: MembershipEntry.keyID(of: key),
            members: [ShareMember(code: code, role: .owner, status: .accepted)], previous: "")
        try place.publish(
            SignedFile(kind: .member, share: share, body: first.body, signedBy: owner).bytes, at: entryPath(1))
        let box = try EpochKeyBox.seal(key, to: code, share: share, epoch: 1, entry: 1)
        try place.publish(
            SignedFile(kind: .epochKey, share: share, body: box.body, signedBy: owner).bytes,
            at: boxPath(epoch: 1, member: code.memberID))
        var marker = Envelope(
            kind: .container, device: device.rawValue, hlc: hlc,
            body: .object(["containerID": .string(share), "shared": .bool(true)]))
        marker.format = containerFormat
        try place.publish(marker.encoded, at: containerPath)
        return try place.read()
    }

    // MARK: Reading

    /// Reads and checks the place (rules 17, 18): `container.json`, `shared.json`, the
    /// membership log from entry 1 (refused as rolled back or forked against `checkpoint`), and
    /// the answers.
    public func read(after checkpoint: ShareCheckpoint? = nil) throws(ShareError) -> ShareState {
        guard let marker = try read(Self.containerPath) else {
            throw ShareError(
                .missing, "\(root) holds no shared place (no container.json: not a share, or not fully arrived)")
        }
        guard let markedShare = Self.sharedContainerID(marker) else {
            throw ShareError(.placeTaken, "\(root) holds something else than a shared place (its container.json)")
        }
        guard let sharedBytes = try read(Self.sharedPath) else {
            throw ShareError(.missing, "\(path(Self.sharedPath)) is missing (not fully arrived?)")
        }
        let shared = try SignedFile(parsing: sharedBytes, kind: .shared, share: nil, path: path(Self.sharedPath))
        guard shared.share == markedShare else {
            throw ShareError(.malformed, "\(path(Self.sharedPath)) names another share than container.json")
        }
        guard case .object(let fields) = shared.body, fields.count == 1,
            let ownerText = shared.body["owner"]?.stringValue,
            let owner = try? IdentityCode(text: ownerText), owner.text == ownerText, shared.isSigned(by: owner)
        else {
            // `try?`: the identity code's own error is replaced by this sentence; nothing is lost.
            throw ShareError(
                .notAllowed, "\(path(Self.sharedPath)) does not check out: its owner or signature is not valid")
        }
        var files: [[UInt8]] = []
        while let bytes = try read(Self.entryPath(Int64(files.count + 1))) { files.append(bytes) }
        let log = try MembershipLog(share: shared.share, owner: owner, files: files, after: checkpoint)
        var problems: [String] = []
        if let refused = log.refused { problems.append(refused.reason) }
        let answers = try readAnswers(log, problems: &problems)
        return ShareState(share: shared.share, owner: owner, log: log, answers: answers, problems: problems)
    }

    /// The share id of a shared place's `container.json` (format 7, rule 17), or nil when the
    /// bytes are not exactly one.
    static func sharedContainerID(_ bytes: [UInt8]) -> String? {
        guard bytes.last == 0x0A, let json = try? JSONValue(parsing: Data(bytes.dropLast())),
            json["format"]?.intValue == containerFormat, let device = json["device"]?.stringValue,
            let hlc = json["hlc"]?.stringValue.flatMap(HLC.init), let body = json["body"],
            case .object(let fields) = body, fields.count == 2, body["shared"] == .bool(true),
            let share = body["containerID"]?.stringValue, UUID(uuidString: share)?.lowercasedString == share
        else { return nil }  // `try?`: any parse failure means "not a shared place's marker".
        var envelope = Envelope(kind: .container, device: device, hlc: hlc, body: body)
        envelope.format = containerFormat
        return envelope.encoded == bytes ? share : nil
    }

    /// The newest answer of each member that checks out; the others are named in `problems`.
    func readAnswers(_ log: MembershipLog, problems: inout [String]) throws(ShareError) -> [String: (
        answer: ShareAnswer, entry: Int64
    )] {
        var answers: [String: (answer: ShareAnswer, entry: Int64)] = [:]
        let names = try storage("listing answers") { try io.listIfPresent(path("answers")) }
        for name in names.sorted() {
            let parts = name.split(separator: "-", omittingEmptySubsequences: false)
            guard name.hasSuffix(".json"), parts.count == 3, IdentityCode.isMemberID(String(parts[0])),
                parts[1].utf8.count == Self.numberWidth, let entry = Int64(parts[1]), entry >= 1,
                let answer = ShareAnswer(rawValue: String(parts[2].dropLast(5)))
            else { continue }  // Not a name of ours (rule 17: other names are ignored).
            let member = String(parts[0])
            let relative = "answers/" + name
            do throws(ShareError) {
                guard let bytes = try read(relative) else { continue }
                let file = try SignedFile(parsing: bytes, kind: .answer, share: log.share, path: path(relative))
                guard file.body == .object(["answer": .string(answer.rawValue), "entry": .int(entry)]),
                    file.signer == member, let line = log.entry(entry)?.member(member), line.status != .removed,
                    file.isSigned(by: line.code)
                else { throw ShareError(.notAllowed, "\(path(relative)) does not check out: not this member's answer") }
            } catch {
                problems.append(error.message)
                continue
            }
            // At one entry, `left` is the later answer.
            if let known = answers[member], known.entry > entry || (known.entry == entry && known.answer == .left) {
                continue
            }
            answers[member] = (answer, entry)
        }
        return answers
    }
}
