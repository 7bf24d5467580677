import Testing

@testable import NotesCore

/// A note's title as a file name: kept as it is when it can be, else made safe.
@Suite struct ExportNamesTests {
    @Test(arguments: [
        ("Plan", "Plan"),
        ("東京 メモ 🚀", "東京 メモ 🚀"),
        ("a/b: c?", "a-b- c-"),
        ("  .hidden. ", "hidden"),
        ("line\u{2028}break\ttab", "line break tab"),
        ("\u{00A0}spaced\u{3000}", "spaced"),
        ("...", "Untitled"),
        ("", "Untitled"),
        ("e\u{301}tude", "e\u{301}tude"),
    ])
    func aTitleIsMadeSafeOnlyWhereItMustBe(title: String, stem: String) {
        #expect(ExportNames.safe(title) == stem)
    }

    @Test func aLongTitleIsCutOnACharacterWithinTheByteLimit() {
        let title = String(repeating: "é", count: 70)  // 140 bytes
        let stem = ExportNames.safe(title)
        #expect(stem == String(repeating: "é", count: 60) && stem.utf8.count <= ExportNames.maxStemBytes)
        let plain = String(repeating: "a", count: ExportNames.maxStemBytes)
        #expect(ExportNames.safe(plain) == plain)
    }
}
