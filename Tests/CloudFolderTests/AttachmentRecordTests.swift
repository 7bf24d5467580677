import Foundation
import NotesCore
import Testing

@testable import CloudFolder

/// Records naming attachments (SYNC-FORMAT rule 15) as untrusted bytes: malformed lists and
/// chunk maps are refused with an error, never a crash; format 3 belongs to log files and
/// snapshots only.
@Suite struct AttachmentRecordTests {
    static let sha = String(repeating: "ab", count: 32)

    static func fields(_ attachments: [JSONValue]) -> JSONValue {
        .object([
            "zone": .string("notes"), "title": .string("t"), "body": .string("b"), "tags": .array([]),
            "isFavorite": .bool(false), "createdAt": .int(1), "modifiedAt": .int(1),
            "attachments": .array(attachments),
        ])
    }

    static func entry(_ name: String, size: Int64 = 3, sha: String = sha) -> JSONValue {
        .object(["name": .string(name), "sha256": .string(sha), "size": .int(size)])
    }

    @Test func malformedAttachmentListsAreRefused() {
        let bad: [[JSONValue]] = [
            [],  // present but empty
            [Self.entry("b"), Self.entry("a")],  // not sorted
            [Self.entry("a"), Self.entry("a")],  // a name twice
            [Self.entry("a/b")], [Self.entry("")], [Self.entry("..")], [Self.entry("tab\there")],
            [Self.entry(String(repeating: "x", count: 256))],
            [Self.entry("a", size: -1)], [Self.entry("a", size: Attachment.maxSize + 1)],
            [Self.entry("a", sha: "ABAB")], [Self.entry("a", sha: String(repeating: "g", count: 64))],
            [.object(["name": .string("a"), "sha256": .string(Self.sha), "size": .int(1), "extra": .int(1)])],
            [.string("a")],
        ]
        for list in bad {
            #expect(throws: (any Error).self, "\(list)") { try RevisionFields(json: Self.fields(list)) }
        }
        let good = try? RevisionFields(json: Self.fields([Self.entry("a"), Self.entry("b.txt")]))
        #expect(good?.attachments.map(\.name) == ["a", "b.txt"])
        #expect(good.map { $0.json == Self.fields([Self.entry("a"), Self.entry("b.txt")]) } == true)
    }

    @Test func aRecordWithFrontMatterNeedsFormat3AndOneWithNeitherDoesNot() throws {
        var fields = try RevisionFields(json: Self.fields([Self.entry("a")]))
        fields.attachments = []
        func record(_ fields: RevisionFields) throws -> JSONValue {
            try ChangeRecord(
                Revision(
                    recordID: UUID(), parents: [], fields: fields, hlc: Fixtures.hlc,
                    device: Fixtures.deviceA.rawValue)
            ).json(estimating: true)
        }
        #expect(!ChangeRecord.needsFormat3(try record(fields)), "older builds keep reading plain notes")
        fields.frontMatter = #"{"aliases":["x"]}"#
        #expect(ChangeRecord.needsFormat3(try record(fields)), "older builds would drop frontMatter")
    }

    @Test func recordsNameExactlyTheChunksOfTheirAttachments() throws {
        var fields = try RevisionFields(json: Self.fields([Self.entry("a", size: 2_500_000)]))
        let revision = Revision(
            recordID: UUID(), parents: [], fields: fields, hlc: Fixtures.hlc, device: Fixtures.deviceA.rawValue)
        // Without a folder a record naming attachments cannot be written; estimating sizes it.
        #expect(throws: CloudError.self) { try ChangeRecord(revision).json() }
        let estimated = try ChangeRecord(revision).json(estimating: true)
        #expect(estimated["attachmentChunks"]?[Self.sha]?["chunks"]?.arrayValue?.count == 3)
        #expect(ChangeRecord.needsFormat3(estimated))
        // Reading: chunk maps that do not match the attachments are refused before any read.
        guard case .object(var object) = estimated else {
            Issue.record("the record is not a JSON object: \(estimated)")
            return
        }
        let mismatched: [JSONValue?] = [
            nil, .object([:]), .object([String(repeating: "cd", count: 32): estimated["attachmentChunks"]![Self.sha]!]),
            .object([Self.sha: AssetRef(chunks: [String(repeating: "0", count: 64)], size: 5).json]),
            .string("x"),
        ]
        for chunks in mismatched {
            object["attachmentChunks"] = chunks
            #expect(throws: (any Error).self) { try ChangeRecord(json: .object(object)) }
        }
        // A record without attachments may not carry a chunk map.
        fields.attachments = []
        let plain = Revision(
            recordID: UUID(), parents: [], fields: fields, hlc: Fixtures.hlc, device: Fixtures.deviceA.rawValue)
        guard case .object(var plainObject) = try ChangeRecord(plain).json() else {
            Issue.record("the record is not a JSON object")
            return
        }
        #expect(plainObject["attachmentChunks"] == nil)
        plainObject["attachmentChunks"] = .object([:])
        #expect(throws: CloudError.self) { try ChangeRecord(json: .object(plainObject)) }
    }

    @Test func formatThreeIsForLogFilesAndSnapshotsOnly() {
        for kind in Envelope.Kind.allCases {
            var envelope = Envelope(
                kind: kind, zone: kind == .changes || kind == .snapshot ? "notes" : "",
                device: Fixtures.deviceA.rawValue,
                seq: kind == .changes || kind == .snapshot ? 1 : 0, hlc: Fixtures.hlc, body: .object([:]))
            envelope.format = Envelope.attachmentsFormat
            let expected = Envelope.Expectation(
                kind: kind, zone: envelope.zone, device: envelope.device, seq: envelope.seq)
            let verified = Envelope.verify(envelope.encoded, expecting: expected)
            if kind == .changes || kind == .snapshot {
                #expect(verified == .valid(envelope), "\(kind)")
            } else {
                #expect(verified == .unsupportedFormat(3), "\(kind)")
            }
        }
    }
}
