import NotesTestSupport
import Testing

@testable import NotesCore

@Suite struct SingleScalarCharactersTests {
    /// Every scalar of the ranges is a Character of its own beside ASCII, beside itself and
    /// alone, by Swift's grapheme breaking: so it is none of the kinds a rule of UAX #29 joins
    /// (an extending or spacing mark or a joiner after a scalar, a prepended one before it, a
    /// regional indicator or conjoining jamo beside its kind), and no two of them join.
    @Test func everyScalarOfTheRangesIsACharacterBesideAnyOther() {
        var checked = 0
        var joined: [String] = []
        for range in SingleScalarCharacters.ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let text = String(scalar)
                if ("a" + text).count != 2 || (text + "a").count != 2 || (text + text).count != 2
                    || ("\r" + text + "\n").count != 3
                {
                    joined.append(String(value, radix: 16))
                }
                checked += 1
            }
        }
        #expect(joined.isEmpty, "scalars that join a neighbour: \(joined.prefix(20))")
        #expect(checked > 37_000)
    }

    /// None of them is a mark or a format character but the soft hyphen (U+00AD), which
    /// `TerminalSafeText.isUnchanged` meets before it asks: it takes the others as they are
    /// without looking up their category.
    @Test func noneIsAMarkOrAFormatCharacterButTheSoftHyphen() {
        var found: [String] = []
        for range in SingleScalarCharacters.ranges {
            for value in range where value != 0xAD {
                guard let scalar = Unicode.Scalar(value) else { continue }
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .enclosingMark, .spacingMark, .format: found.append(String(value, radix: 16))
                default: if TerminalSafeText.isInvisibleFormat(scalar) { found.append(String(value, radix: 16)) }
                }
            }
        }
        #expect(found.isEmpty, "\(found.prefix(20))")
    }

    /// The ranges are ascending and apart, as the binary search needs, and the look-up agrees
    /// with a scan of them for every scalar from 0 to past the last range.
    @Test func theLookUpFindsExactlyTheScalarsOfTheRanges() {
        let ranges = SingleScalarCharacters.ranges
        for (before, after) in zip(ranges, ranges.dropFirst()) { #expect(before.upperBound < after.lowerBound) }
        var differ: [UInt32] = []
        for value in UInt32(0)...0x20000 {
            let scanned = value < 0x80 ? value != 0x0D : ranges.contains { $0.contains(value) }
            if SingleScalarCharacters.contains(value) != scanned { differ.append(value) }
        }
        #expect(differ.isEmpty, "\(differ.prefix(10))")
    }

    /// Random text of the scalars, and of the scalars with one that joins or a carriage return:
    /// the starts are the Characters' own, or nil.
    @Test func theStartsAreTheCharactersOwnOrNone() {
        let seed = SeededRandom.seed(default: 4107)
        var rng = SeededRandom(seed: seed)
        let single = Array("ab Z9.\t\néüßÆαωжЯ–—“”…€→■✅★東京会議メモひらがな한국어ＡＢ🎉🔥👍😀🚀🤖".unicodeScalars)
        let joining = Array(
            "\u{301}\u{200D}\u{FE0F}\u{1F3FD}\u{1F1EF}\u{1F1F5}\u{3099}\u{1100}\u{1161}\r\u{0E31}".unicodeScalars)
        for round in 0..<3000 {
            var scalars = (0..<Int.random(in: 0...40, using: &rng)).map { _ in single.randomElement(using: &rng)! }
            let joins = round % 3 == 0 && !scalars.isEmpty
            if joins {
                scalars.insert(
                    joining.randomElement(using: &rng)!, at: Int.random(in: 0...scalars.count, using: &rng))
            }
            var text = String(String.UnicodeScalarView(scalars))
            let starts = text.withUTF8(SingleScalarCharacters.characterStarts)
            let context = "seed \(seed): \(text.debugDescription)"
            if joins {
                #expect(starts == nil, "\(context)")
            } else {
                let walked = text.indices.map { text.utf8.distance(from: text.startIndex, to: $0) }
                #expect(starts == walked, "\(context)")
            }
        }
    }

    /// Bytes that are not UTF-8, or not the shortest form of a scalar of the ranges, are none.
    @Test func bytesThatAreNotUTF8AreNone() {
        for bytes: [UInt8] in [
            [0xC3], [0x80], [0xE0, 0x83, 0xA9], [0xC1, 0xA9], [0xF0, 0x80, 0x83, 0xA9], [0xED, 0xA0, 0x80],
            [0xF8, 0x80, 0x80, 0x80, 0x80], [0x61, 0xE6, 0x9D],
        ] {
            #expect(bytes.withUnsafeBufferPointer(SingleScalarCharacters.characterStarts) == nil, "\(bytes)")
        }
        #expect([0x61, 0xC3, 0xA9].withUnsafeBufferPointer(SingleScalarCharacters.characterStarts) == [0, 1])
    }
}
