import Foundation
import NotesCore
import Testing

@testable import CloudFolder

@Suite struct EnvelopeTests {
    let envelope = Envelope(
        kind: .changes, zone: "notes", device: Fixtures.deviceA.rawValue, seq: 7, hlc: Fixtures.hlc,
        body: .array([.object(["b": .int(2), "a": .string("é\n\"")])]))
    var expected: Envelope.Expectation {
        .init(kind: .changes, zone: "notes", device: Fixtures.deviceA.rawValue, seq: 7)
    }

    @Test func roundTripsThroughItsCanonicalBytes() {
        let bytes = envelope.encoded
        #expect(Envelope.verify(bytes, expecting: expected) == .valid(envelope))
        #expect(bytes.last == 0x0A)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"body":[{"a":"é\n\"","b":2}],"device":"aaaaaaaaaaaaaaaa","format":1,"hlc":"#))
        #expect(text.contains(#""kind":"changes","seq":7,"sha256":""# + Envelope.sha256(envelope.body.canonicalBytes)))
    }

    /// The file's bytes are built around the body's bytes (encoded once): they are the whole
    /// object's canonical form, every kind of body and header, escapes and all.
    @Test func theBytesAreTheWholeObjectsCanonicalForm() {
        let bodies: [JSONValue] = [
            .null, .object([:]), .array([]), .string("\u{0}\u{1f}\"\\/é東京\n"),
            .array([.object(["z": .int(-1), "a": .bool(true), "é": .array([.null, .string("x")])])]),
        ]
        for (index, body) in bodies.enumerated() {
            var envelope = Envelope(
                kind: Envelope.Kind.allCases[index % Envelope.Kind.allCases.count], zone: index == 0 ? "" : "z\"one",
                device: Fixtures.deviceA.rawValue, seq: Int64(index), hlc: Fixtures.hlc, body: body)
            envelope.format = Int64(index + 1)
            let whole: JSONValue = .object([
                "body": body, "device": .string(envelope.device), "format": .int(envelope.format),
                "hlc": .string(envelope.hlc.description), "kind": .string(envelope.kind.rawValue),
                "seq": .int(envelope.seq), "sha256": .string(Envelope.sha256(body.canonicalBytes)),
                "zone": .string(envelope.zone),
            ])
            #expect(envelope.encoded == whole.canonicalBytes + [0x0A])
        }
    }

    @Test func theHashIsOfTheCanonicalBody() {
        #expect(
            Envelope.sha256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func aTamperedBodyIsNotArrivedYet() {
        var text = String(decoding: envelope.encoded, as: UTF8.self)
        text = text.replacingOccurrences(of: #""b":2"#, with: #""b":3"#)
        guard case .notArrivedYet(let reason) = Envelope.verify(Array(text.utf8), expecting: expected) else {
            Issue.record("tampered body accepted")
            return
        }
        #expect(reason.contains("sha256"))
    }

    @Test func aTornFileIsNotArrivedYet() {
        let bytes = envelope.encoded
        for cut in [1, bytes.count / 2, bytes.count - 1] {
            let result = Envelope.verify(Array(bytes.prefix(cut)), expecting: expected)
            #expect(result.isNotArrived, "cut at \(cut)")
        }
        #expect(Envelope.verify([], expecting: expected).isNotArrived)
    }

    @Test func aHeaderThatDoesNotMatchItsPathIsNotArrivedYet() {
        // A valid file copied (or replayed) to another seq, device or zone.
        for other in [
            Envelope.Expectation(kind: .changes, zone: "notes", device: Fixtures.deviceA.rawValue, seq: 8),
            Envelope.Expectation(kind: .changes, zone: "notes", device: Fixtures.deviceB.rawValue, seq: 7),
            Envelope.Expectation(kind: .changes, zone: "work", device: Fixtures.deviceA.rawValue, seq: 7),
            Envelope.Expectation(kind: .snapshot, zone: "notes", device: Fixtures.deviceA.rawValue, seq: 7),
        ] {
            #expect(Envelope.verify(envelope.encoded, expecting: other).isNotArrived)
        }
    }

    @Test func nonCanonicalBytesAreNotAccepted() {
        // Same content, pretty-printed: hash matches but the bytes are not the canonical form.
        let text = String(decoding: envelope.encoded, as: UTF8.self).replacingOccurrences(
            of: ",\"device\"", with: ", \"device\"")
        #expect(Envelope.verify(Array(text.utf8), expecting: expected).isNotArrived)
    }

    @Test func aNewerFormatIsReportedAsSuch() {
        var newer = envelope
        newer.format = 4
        #expect(Envelope.verify(newer.encoded, expecting: expected) == .unsupportedFormat(4))
    }

    @Test func garbageIsNotArrivedYetNotACrash() {
        for junk in ["\n", "null\n", "[]\n", "{}\n", "{\"body\":1}\n", "\u{FF}\u{FE}\n", "1.5\n"] {
            #expect(Envelope.verify(Array(junk.utf8), expecting: expected).isNotArrived, "\(junk.debugDescription)")
        }
    }
}

extension Envelope.Verification {
    var isNotArrived: Bool {
        if case .notArrivedYet = self { return true }
        return false
    }
}
