import NotesTestSupport
import Testing

@testable import NotesCore

@Suite struct SearchHighlighterTests {
    func ranges(_ terms: [String], _ text: String) -> [Range<Int>] {
        SearchHighlighter.ranges(of: terms.map(TextFolding.fold), in: text)
    }

    @Test func rangesAreCharacterOffsetsInTheOriginalText() {
        #expect(ranges(["cafe"], "Un Café crème") == [3..<7])
        #expect(ranges(["CRÈME"], "Un Café crème") == [8..<13])
        #expect(ranges(["e"], "Un Café crème") == [6..<7, 10..<11, 12..<13])
        // Decomposed é is one Character of two scalars.
        #expect(ranges(["cafe"], "cafe\u{301}!") == [0..<4])
        #expect(ranges(["strasse"], "Große Straße 5") == [6..<12])
    }

    @Test func cjkEmojiAndHangulRanges() {
        #expect(ranges(["会議"], "東京の会議メモ") == [3..<5])
        #expect(ranges(["🎉"], "party 🎉!") == [6..<7])
        #expect(ranges(["🇯🇵"], "x🇯🇵y") == [1..<2])
        #expect(ranges(["❤️"], "I ❤️ it") == [2..<3])
        #expect(ranges(["하"], "한국어") == [0..<1])
        #expect(ranges(["국어"], "한국어") == [1..<3])
    }

    @Test func overlappingAndAdjacentMatchesMerge() {
        #expect(ranges(["ab", "bc"], "xabcx") == [1..<4])
        #expect(ranges(["ab", "cd"], "abcd") == [0..<4])
        #expect(ranges(["aa"], "aaaa") == [0..<4])
        #expect(ranges(["zz"], "abc").isEmpty)
        #expect(ranges([], "abc").isEmpty)
        #expect(ranges([""], "abc").isEmpty)
        #expect(ranges(["abc"], "").isEmpty)
    }

    @Test func snippetIsTheFirstMatchingLineCutAroundTheMatch() throws {
        let body = "first line\nsecond line about the Café\nthird café"
        let snippet = try #require(SearchHighlighter.snippet(of: body, terms: ["cafe"]))
        #expect(snippet.text == "second line about the Café")
        #expect(snippet.matches == [22..<26])
        #expect(SearchHighlighter.snippet(of: body, terms: ["nowhere"]) == nil)
    }

    @Test func snippetsOfCRLFTextEndWithoutTheCarriageReturn() throws {
        let body = "first\r\nsecond Café\r\nthird"
        let snippet = try #require(SearchHighlighter.snippet(of: body, terms: ["cafe"]))
        #expect(snippet.text == "second Café")
        #expect(snippet.matches == [7..<11])
        #expect(SearchHighlighter.snippet(of: "a\r\nb\r\nzz", terms: ["zz"])?.text == "zz")
    }

    @Test func aLongLineIsCutWithEllipsesAndTheRangesFollowTheCut() throws {
        let line = String(repeating: "lorem ipsum ", count: 20) + "Zürich" + String(repeating: " dolor sit", count: 20)
        let snippet = try #require(SearchHighlighter.snippet(of: line, terms: ["zurich"], width: 40))
        let chars = Array(snippet.text)
        #expect(chars.first == "…" && chars.last == "…")
        #expect(chars.count == 42)
        #expect(snippet.matches.count == 1)
        #expect(String(chars[snippet.matches[0]]) == "Zürich")
    }

    @Test func aMatchNearTheEndShowsTheLineEnd() throws {
        let line = String(repeating: "x", count: 100) + " 東京"
        let snippet = try #require(SearchHighlighter.snippet(of: line, terms: ["東京"], width: 20))
        #expect(snippet.text.hasPrefix("…") && snippet.text.hasSuffix(" 東京"))
        #expect(Array(snippet.text).count == 21)
        #expect(String(Array(snippet.text)[snippet.matches[0]]) == "東京")
    }

    /// The reference: fold each Character, search the scalars, map back to Character offsets.
    static func referenceRanges(_ terms: [String], _ text: String) -> [Range<Int>] {
        var scalars: [Unicode.Scalar] = []
        var owner: [Int] = []
        for (i, ch) in text.enumerated() {
            let folded = Array(TextFolding.fold(String(ch)).unicodeScalars)
            scalars += folded
            owner += Array(repeating: i, count: folded.count)
        }
        var found: [Range<Int>] = []
        for term in terms {
            let needle = Array(term.unicodeScalars)
            guard !needle.isEmpty, needle.count <= scalars.count else { continue }
            var i = 0
            while i + needle.count <= scalars.count {
                if Array(scalars[i..<(i + needle.count)]) == needle {
                    found.append(owner[i]..<(owner[i + needle.count - 1] + 1))
                    i += needle.count
                } else {
                    i += 1
                }
            }
        }
        var merged: [Range<Int>] = []
        for r in found.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }

    @Test func rangesAndSnippetsAgreeWithAReferenceOnRandomText() {
        let seed = SeededRandom.seed(default: 5045)
        var rng = SeededRandom(seed: seed)
        let ascii = Array("abAB \n\r\t-".unicodeScalars)
        let mixed = ascii + Array("éÉ\u{301}日🎉ß".unicodeScalars)
        // One folder for every body, as a page of results shares one (its table made early).
        var folder = TextFolding.Folder(tableAfter: 4)
        for round in 0..<1500 {
            let alphabet = round % 2 == 0 ? ascii : mixed
            let text = rng.string(from: alphabet, count: Int.random(in: 0...30, using: &rng))
            let terms = (0..<Int.random(in: 1...2, using: &rng)).map { _ in
                TextFolding.fold(
                    rng.string(from: Array("abé日ß ".unicodeScalars), count: Int.random(in: 1...3, using: &rng)))
            }
            let context = "seed \(seed): \(text.debugDescription) \(terms)"
            #expect(SearchHighlighter.ranges(of: terms, in: text) == Self.referenceRanges(terms, text), "\(context)")
            #expect(
                SearchHighlighter.ranges(of: terms, in: text, folder: &folder) == Self.referenceRanges(terms, text),
                "\(context)")
            // The snippet is the first LF-separated line (without its CR) that has a match.
            let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                String(String.UnicodeScalarView(line.last == "\r" ? line.dropLast() : line[...]))
            }
            let expected = lines.first { !Self.referenceRanges(terms, $0).isEmpty }
            let snippet = SearchHighlighter.snippet(of: text, terms: terms, width: 1000)
            #expect(snippet?.text == expected, "\(context)")
            let shared = SearchHighlighter.snippet(of: text, terms: terms, width: 1000, folder: &folder)
            #expect(shared?.text == snippet?.text && shared?.matches == snippet?.matches, "\(context)")
            if let snippet, let expected {
                #expect(snippet.matches == Self.referenceRanges(terms, expected), "\(context)")
            }
        }
    }
}

extension SearchHighlighterTests {
    /// The oracle's snippet of a line: the reference's ranges, the line cut by an array of its
    /// Characters.
    static func referenceSnippet(_ line: String, _ terms: [String], width: Int) -> (
        text: String, matches: [Range<Int>]
    )? {
        let chars = Array(line)
        return SearchHighlighter.cut(referenceRanges(terms, line), count: chars.count, width: width) {
            String(chars[$0])
        }
    }

    /// Random lines of `alphabet` up to `length` scalars, with terms taken from the line's fold
    /// or made up, cut at random widths up to `widest`: `snippet(inLine:)` cuts each as the
    /// oracle cuts it by an array of Characters (seeded).
    static func expectCutsAsTheReference(
        alphabet: String, length: Int, widest: Int, lines: Int, seed fallback: UInt64
    ) {
        let seed = SeededRandom.seed(default: fallback)
        var rng = SeededRandom(seed: seed)
        let scalars = Array(alphabet.unicodeScalars)
        var folder = TextFolding.Folder(tableAfter: 4)
        for _ in 0..<lines {
            let line = rng.string(from: scalars, count: Int.random(in: 0...length, using: &rng))
            let folded = Array(TextFolding.fold(line).unicodeScalars)
            var terms: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                if !folded.isEmpty, Bool.random(using: &rng) {
                    let start = Int.random(in: 0..<folded.count, using: &rng)
                    let end = min(folded.count, start + Int.random(in: 1...4, using: &rng))
                    terms.append(String(String.UnicodeScalarView(folded[start..<end])))
                } else {
                    let made = rng.string(from: scalars, count: Int.random(in: 1...2, using: &rng))
                    terms.append(TextFolding.fold(made))
                }
            }
            let width = Int.random(in: 1...widest, using: &rng)
            let cut = SearchHighlighter.snippet(inLine: line, terms: terms, width: width)
            let oracle = referenceSnippet(line, terms, width: width)
            #expect(cut?.text == oracle?.text, "seed \(seed): \(line.debugDescription) \(terms) \(width)")
            #expect(cut?.matches == oracle?.matches, "seed \(seed): \(line.debugDescription) \(terms) \(width)")
            // A folder shared by every line, as a page of results shares one (its table made early).
            let shared = SearchHighlighter.snippet(inLine: line, terms: terms, width: width, folder: &folder)
            #expect(
                shared?.text == oracle?.text && shared?.matches == oracle?.matches,
                "seed \(seed): \(line.debugDescription)")
            // The line as a body of one line: cut from its bytes where it lies when its scalars
            // are Characters (`snippet(ofFoldedLine:)`), else by the line's Characters.
            if !line.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) {
                let body = SearchHighlighter.snippet(of: line, terms: terms, width: width, folder: &folder)
                #expect(
                    body?.text == oracle?.text && body?.matches == oracle?.matches,
                    "seed \(seed): \(line.debugDescription) \(terms) \(width)")
            }
        }
    }

    /// A line that is not plain ASCII is cut where its Characters start: accents decomposed and
    /// not, CRLF, emoji sequences, flags, CJK, Hangul, ß, a ligature.
    @Test func anyLineIsCutAsTheReferenceCutsItsCharacters() {
        Self.expectCutsAsTheReference(
            alphabet: "abAB \t.-\r\né\u{301}É日本語🎉👍🏽🇯🇵❤️ßẞ한국 ﬁ", length: 120, widest: 100, lines: 1500, seed: 2311)
    }

    /// A line whose scalars are each a Character (`SingleScalarCharacters`) is cut by its
    /// scalars: accents precomposed, Greek, Cyrillic, punctuation, CJK, kana, Hangul syllables,
    /// emoji without modifiers.
    @Test func aLineOfSingleScalarCharactersIsCutAsTheReferenceCutsIt() {
        Self.expectCutsAsTheReference(
            alphabet: "abAB \t.-éÉüßẞæαΩжЯ–“…€→✅東京会議メモひら한국ＡＢ🎉🔥👍🚀", length: 120, widest: 100, lines: 1500,
            seed: 3117)
    }

    /// An ASCII line is cut by its bytes: lines long and short, controls, matches at either end.
    @Test func anASCIILineIsCutAsItsCharactersAre() {
        Self.expectCutsAsTheReference(
            alphabet: "abcAB xyz\t.-_~[]#\u{1}\u{7F}09", length: 300, widest: 120, lines: 2000, seed: 2232)
    }
}
