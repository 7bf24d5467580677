import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import CloudFolder

/// Every file of the cloud folder, damaged (ARCHITECTURE §7): `Envelope.verify` and the decoders
/// of what an envelope carries (change batches, snapshots, device, zone and container files)
/// return a value or an error, never trap. Damage reaches past the envelope's hash too: a body
/// or header mutated and then sealed again with a correct sha256, as a buggy or hostile writer
/// would. What decodes re-encodes to a value that decodes the same, and its seqs and times are
/// within the ranges readers compute with (`seq + 1`, `now - lastSeen`).
@Suite struct EnvelopeFuzzTests {
    struct Seed {
        var envelope: Envelope
        var expected: Envelope.Expectation
    }

    static func seeds() throws -> [Seed] {
        let a = Fixtures.deviceA
        let b = Fixtures.deviceB
        let zone = Fixtures.zone
        let token = ChangeToken([a: 12, b: 999_999_999_999])
        let batch = ChangeBatch(
            records: Fixtures.batch([1, 2, 3]).records + [ChangeRecord(Fixtures.tombstone(4, parent: "ab"))])
        let snapshot = Snapshot(
            device: a, seq: 7, hlc: Fixtures.hlc, covers: token,
            state: .object(["revisions": try batch.body()]))
        let device = DeviceInfo(
            name: "Zoë's laptop", lastSeen: 1_700_000_000_000, acknowledged: [zone: token], pruned: [zone: 3])
        let envelopes: [(Envelope, Envelope.Expectation)] = [
            (
                Envelope(
                    kind: .container, device: a.rawValue, hlc: Fixtures.hlc,
                    body: ContainerInfo(containerID: "2aa3300b-2b71-4343-a20d-672b15ad9a9d").json),
                .init(kind: .container)
            ),
            (
                Envelope(
                    kind: .container, device: a.rawValue, hlc: Fixtures.hlc,
                    body: {
                        var info = ContainerInfo(containerID: "2aa3300b-2b71-4343-a20d-672b15ad9a9d")
                        info.restored = "\(a)-\(Fixtures.hlc)"
                        return info.json
                    }()),
                .init(kind: .container)
            ),
            (
                Envelope(
                    kind: .moved, device: a.rawValue, hlc: Fixtures.hlc,
                    body: .object([
                        "containerID": .string("2aa3300b-2b71-4343-a20d-672b15ad9a9d"),
                        "movedTo": .string("s3://bucket/notes/ünï"),
                    ])),
                .init(kind: .moved)
            ),
            (
                Envelope(kind: .device, device: a.rawValue, hlc: Fixtures.hlc, body: device.json),
                .init(kind: .device, device: a.rawValue)
            ),
            (
                Envelope(
                    kind: .zone, zone: zone.rawValue, device: a.rawValue, hlc: Fixtures.hlc,
                    body: ZoneInfo(zone: zone, displayName: "Notes 日本", createdBy: a).json),
                .init(kind: .zone, zone: zone.rawValue)
            ),
            (
                Envelope(
                    kind: .deleted, zone: zone.rawValue, device: a.rawValue, hlc: Fixtures.hlc,
                    body: .object(["zone": .string(zone.rawValue)])),
                .init(kind: .deleted, zone: zone.rawValue, device: a.rawValue)
            ),
            (
                Envelope(
                    kind: .changes, zone: zone.rawValue, device: a.rawValue, seq: 5, hlc: Fixtures.hlc,
                    body: try batch.body()),
                .init(kind: .changes, zone: zone.rawValue, device: a.rawValue, seq: 5)
            ),
            (snapshot.envelope(zone: zone), .init(kind: .snapshot, zone: zone.rawValue, device: a.rawValue, seq: 7)),
            (
                Envelope(
                    kind: .identity, device: a.rawValue, hlc: Fixtures.hlc,
                    body: AccountIdentity.generate(name: "Ana 日本").json),
                .init(kind: .identity)
            ),
            (
                Envelope(
                    kind: .setting, device: a.rawValue, hlc: Fixtures.hlc,
                    body: .object(["key": .string("theme.accent"), "value": .string("cyan 日本")])),
                .init(kind: .setting, device: a.rawValue)
            ),
        ]
        return envelopes.map { Seed(envelope: $0.0, expected: $0.1) }
    }

    /// Decodes what `envelope` carries; records an issue when a decoded value does not survive a
    /// round trip or holds a number readers cannot compute with.
    static func decodeBody(_ envelope: Envelope, _ context: String) throws {
        func inRange(_ token: ChangeToken) -> Bool {
            token.seqByDevice.values.allSatisfy(ChangeToken.seqRange.contains)
        }
        switch envelope.kind {
        case .container:
            guard let info = try? ContainerInfo(json: envelope.body) else { return }
            #expect(try ContainerInfo(json: info.json) == info, "\(context)")
        case .device:
            guard let info = try? DeviceInfo(json: envelope.body) else { return }
            #expect(try DeviceInfo(json: info.json) == info, "\(context)")
            #expect(DeviceInfo.timeRange.contains(info.lastSeen), "\(context)")
            #expect(info.acknowledged.values.allSatisfy(inRange), "\(context)")
            #expect(info.pruned.values.allSatisfy(ChangeToken.seqRange.contains), "\(context)")
        case .zone:
            guard let info = try? ZoneInfo(json: envelope.body) else { return }
            #expect(try ZoneInfo(json: info.json) == info, "\(context)")
        case .name:
            guard let name = DirectoryCloudFolder.notebookName(in: envelope) else { return }
            #expect(NotebookName.cleaned(name.displayName) == name.displayName, "\(context)")
        case .keys:
            guard let keys = try? KeysFile(json: envelope.body, generation: envelope.seq) else { return }
            #expect(try KeysFile(json: keys.json, generation: envelope.seq) == keys, "\(context)")
        case .changes:
            guard let batch = try? ChangeBatch(body: envelope.body) else { return }
            guard let body = try? batch.body() else { return }
            // Records refused for an out-of-range value are not written again: what re-reads is
            // the accepted records, all of them, and nothing refused.
            let reread = try ChangeBatch(body: body)
            #expect(reread.records == batch.records, "\(context)")
            #expect(reread.refused.isEmpty, "\(context)")
        case .snapshot:
            guard let device = DeviceID(envelope.device),
                let snapshot = try? Snapshot(envelope: envelope, device: device)
            else { return }
            #expect(inRange(snapshot.covers), "\(context)")
            #expect(try ChangeToken(json: snapshot.covers.json) == snapshot.covers, "\(context)")
            if let records = try? (snapshot.state["revisions"]?.arrayValue ?? []).map({ try ChangeRecord(json: $0) }) {
                #expect(try records.map { try ChangeRecord(json: $0.json()) } == records, "\(context)")
            }
        case .deleted:
            _ = envelope.body["zone"]?.stringValue.flatMap(ZoneID.init)
        case .identity:
            guard let identity = try? AccountIdentity(json: envelope.body) else { return }
            let again = try AccountIdentity(json: identity.json)
            #expect(again.sameKeys(as: identity) && again.name == identity.name, "\(context)")
            #expect(try IdentityCode(text: identity.code.text) == identity.code, "\(context)")
        case .setting:
            guard let setting = DirectoryCloudFolder.setting(in: envelope) else { return }
            // What checks out re-encodes to the same body, and a value is never over its limit.
            let again = Envelope(
                kind: .setting, device: envelope.device, hlc: envelope.hlc,
                body: .object(["key": .string(setting.key), "value": setting.value.map(JSONValue.string) ?? .null]))
            #expect(again.body == envelope.body, "\(context)")
            #expect((setting.value?.utf8.count ?? 0) <= SettingsState.maxValueBytes, "\(context)")
        case .moved:
            let id = "2aa3300b-2b71-4343-a20d-672b15ad9a9d"
            guard case .valid(let pointer) = ForwardPointer.parse(envelope.encoded, containerID: id, plain: true)
            else { return }
            // What checks out names a place that may be followed, of this container.
            #expect(ForwardPointer.isValidPlace(pointer.place), "\(context)")
            #expect(pointer.containerID == id, "\(context)")
        }
    }

    /// Verifies `bytes`; a valid envelope is exactly its own encoding, and its body is decoded.
    static func check(_ bytes: [UInt8], _ expected: Envelope.Expectation, _ context: String) throws -> Bool {
        guard case .valid(let envelope) = Envelope.verify(bytes, expecting: expected) else { return false }
        #expect(envelope.encoded == bytes, "\(context)")
        try decodeBody(envelope, context)
        return true
    }

    /// The bytes of an envelope whose fields are `object`'s, sealed with a correct sha256.
    static func resealed(_ object: JSONValue) -> [UInt8]? {
        guard case .object(var fields) = object, let body = fields["body"] else { return nil }
        fields["sha256"] = .string(Envelope.sha256(body.canonicalBytes))
        return JSONValue.object(fields).canonicalBytes + [0x0A]
    }

    /// Values a decoder must refuse or compute with safely.
    static let boundaryValues: [JSONValue] = [
        .int(.max), .int(.min), .int(999_999_999_999), .int(1_000_000_000_000), .int(-1), .int(0),
        .int(253_402_300_800_000), .int(-62_167_219_200_001), .string(""), .string("aaaaaaaaaaaaaaaa"), .string("../x"),
        .string("\u{0}"), .null,
        .bool(true), .array([]), .object([:]),
    ]

    /// `value` with one node (chosen at random among `count` nodes) replaced by a boundary value.
    static func replacingNode(_ value: JSONValue, _ rng: inout SeededRandom) -> JSONValue {
        func nodes(_ v: JSONValue) -> Int {
            switch v {
            case .array(let items): return 1 + items.map(nodes).reduce(0, +)
            case .object(let members): return 1 + members.values.map(nodes).reduce(0, +)
            default: return 1
            }
        }
        var target = Int.random(in: 0..<nodes(value), using: &rng)
        let replacement = boundaryValues.randomElement(using: &rng)!
        func walk(_ v: JSONValue) -> JSONValue {
            if target == 0 {
                target -= 1
                return replacement
            }
            target -= 1
            switch v {
            case .array(let items): return .array(items.map(walk))
            case .object(let members):
                return .object(
                    Dictionary(
                        uniqueKeysWithValues: members.sorted { $0.key < $1.key }.map { ($0.key, walk($0.value)) }))
            default: return v
            }
        }
        return walk(value)
    }

    @Test func damagedFilesVerifyOrAreNotArrived() throws {
        let run = FuzzRun("envelopes and their bodies", defaultIterations: 10_000)
        var rng = SeededRandom(seed: run.seed)
        let seeds = try Self.seeds()
        for seed in seeds {
            #expect(Envelope.verify(seed.envelope.encoded, expecting: seed.expected) == .valid(seed.envelope))
        }
        let files = ByteMutator(
            corpus: seeds.map(\.envelope.encoded),
            extraTokens: ["aaaaaaaaaaaaaaaa", "notes", "recordID", "\"deleted\":true", "fields", "covers"].map {
                Array($0.utf8)
            })
        let bodies = ByteMutator(corpus: seeds.map(\.envelope.body.canonicalBytes), extraTokens: files.dictionary)
        var valid = 0
        for iteration in 0..<run.iterations {
            let seed = seeds.randomElement(using: &rng)!
            let context = run.context(iteration)
            switch iteration % 4 {
            case 0:  // the file as it lies in the folder
                let bytes = files.mutate(seed.envelope.encoded, using: &rng)
                if try Self.check(bytes, seed.expected, context) { valid += 1 }
            case 1:  // the body, sealed in a correct envelope
                let bytes = bodies.mutate(seed.envelope.body.canonicalBytes, using: &rng)
                guard let body = try? JSONValue(parsing: Data(bytes)) else { continue }
                var envelope = seed.envelope
                envelope.body = body
                #expect(Envelope.verify(envelope.encoded, expecting: seed.expected) == .valid(envelope), "\(context)")
                if try Self.check(envelope.encoded, seed.expected, context) { valid += 1 }
            case 2:  // one value of the header or body replaced, sealed again
                let object = try JSONValue(parsing: Data(seed.envelope.encoded.dropLast()))
                guard let sealed = Self.resealed(Self.replacingNode(object, &rng)) else { continue }
                if try Self.check(sealed, seed.expected, context) { valid += 1 }
            default:  // header and body, sealed again
                let bytes = files.mutate(Array(seed.envelope.encoded.dropLast()), using: &rng)
                guard let object = try? JSONValue(parsing: Data(bytes)), let sealed = Self.resealed(object) else {
                    continue
                }
                if try Self.check(sealed, seed.expected, context) { valid += 1 }
            }
        }
        print("fuzz envelopes and their bodies: \(valid) of \(run.iterations) damaged files still verified")
    }

    // MARK: Regressions: numbers a reader computes with (trapped in fetch and compaction)

    @Test func seqsAndTimesOutsideTheirRangesAreMalformed() throws {
        let device = Fixtures.deviceA.rawValue
        for seq: Int64 in [Int64.max, 1_000_000_000_000, -1] {
            #expect(throws: CloudError.self, "\(seq)") { try ChangeToken(json: .object([device: .int(seq)])) }
        }
        #expect(try ChangeToken(json: .object([device: .int(999_999_999_999)]))[Fixtures.deviceA] == 999_999_999_999)
        func deviceFile(lastSeen: Int64, pruned: Int64 = 1) -> JSONValue {
            .object([
                "name": .string("x"), "lastSeen": .int(lastSeen), "acknowledged": .object([:]),
                "pruned": .object(["notes": .int(pruned)]),
            ])
        }
        #expect(throws: CloudError.self) { try DeviceInfo(json: deviceFile(lastSeen: Int64.min)) }
        #expect(throws: CloudError.self) { try DeviceInfo(json: deviceFile(lastSeen: 1, pruned: Int64.max)) }
        #expect(try DeviceInfo(json: deviceFile(lastSeen: -1)).lastSeen == -1)
        // The edges of the range are dates `status` prints.
        #expect(ISODate.string(Date(millisecondsSince1970: DeviceInfo.timeRange.lowerBound)).hasPrefix("0001-01-"))
        #expect(
            ISODate.string(Date(millisecondsSince1970: DeviceInfo.timeRange.upperBound)) == "9999-12-31T23:59:59.999Z")
    }
}
