import Testing

@testable import NotesCore

/// Folder paths become notebook ids (zone ids, `[a-z0-9-]{1,64}`) for folder imports.
@Suite struct NotebookSlugTests {
    static func isZoneID(_ s: String) -> Bool {
        (1...64).contains(s.count)
            && s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    @Test(arguments: [
        ("Work", "work"), ("Work/Projects 2025", "work-projects-2025"), ("Café & Recettes", "cafe-recettes"),
        ("  -Inbox-  ", "inbox"), ("Zürich/Reise", "zurich-reise"), ("a__b..c", "a-b-c"),
    ])
    func foldersBecomeReadableSlugs(_ path: String, _ expected: String) {
        #expect(NotebookSlug.slug(ofFolderPath: path) == expected)
    }

    @Test func pathsWithoutLatinLettersOrTooLongGetAStableHash() {
        let diary = NotebookSlug.slug(ofFolderPath: "日記")
        #expect(diary.hasPrefix("folder-") && diary.count == 15)
        #expect(diary == NotebookSlug.slug(ofFolderPath: "日記"))
        #expect(diary != NotebookSlug.slug(ofFolderPath: "メモ"))
        let long = String(repeating: "Projects/", count: 20)
        let slug = NotebookSlug.slug(ofFolderPath: long)
        #expect(Self.isZoneID(slug), "\(slug)")
        #expect(slug != NotebookSlug.slug(ofFolderPath: long + "x"))
    }

    @Test func distinctFoldersGetDistinctValidSlugs() {
        let paths = [
            "Work", "work", "WORK", "Work/Old", "Work-Old", "日記", "メモ", "notes", String(repeating: "é", count: 90),
        ]
        let slugs = NotebookSlug.slugs(ofFolderPaths: paths)
        #expect(Set(slugs.values).count == paths.count, "\(slugs)")
        #expect(slugs.values.allSatisfy(Self.isZoneID), "\(slugs)")
        // The first in sorted order keeps the plain slug; the same paths always give the same slugs.
        #expect(slugs["WORK"] == "work")
        #expect(NotebookSlug.slugs(ofFolderPaths: paths.reversed()) == slugs)
    }
}
