import Foundation
import NotesCore
import NotesStore
import NotesTestSupport
import Testing

/// Every link of a 1,900-note vault (`ObsidianVault`) leads where the vault means it to,
/// through the store-level import the CLI uses (each file read by `MarkdownNote`, each
/// folder's notebook from `NotebookSlug`, `importNotes`): by title, `[[Title|shown]]`,
/// `[[Title#heading]]`, by alias, by a file name several folders share (the nearest folder
/// first, else the vault's top) and by path; and every note's backlinks are exactly the notes
/// linking to it. (`ImportVaultAtSizeTests` runs the CLI on the same vault and reads a sample
/// of the links back.) Replay with CLOUDNOTES_SEED.
@Suite struct VaultLinksAtSizeTests {
    @Test func everyLinkOfAVaultLeadsToTheNoteItMeans() throws {
        let seed = SeededRandom.seed(default: 1915)
        let vault = ObsidianVault(seed: seed)
        let zones = NotebookSlug.slugs(ofFolderPaths: vault.folders)
        let fileDate = Date(timeIntervalSince1970: 1_700_000_000)
        let notes = try vault.notes.map { note in
            try MarkdownNote.parse(
                note.text, fileDate: fileDate, notebook: note.folder.isEmpty ? nil : zones[note.folder],
                fileName: String(note.path.split(separator: "/").last!.dropLast(3)))
        }
        #expect(notes.map(\.title) == vault.notes.map(\.title), "seed \(seed)")
        let test = try TestStore()
        let counts = try test.store.importNotes(notes)
        #expect(counts.created == 1900, "seed \(seed)")

        var linkers: [Int: Set<UUID>] = [:]
        var checked = 0
        for (n, note) in vault.notes.enumerated() {
            let links = try test.store.links(of: notes[n].id)
            #expect(
                links.map { $0.note?.id } == note.links.map { notes[$0.target].id },
                "seed \(seed): links of \(note.path): \(note.links.map(\.written)) → \(links.map { $0.note?.title ?? "(none)" })"
            )
            checked += links.count
            for link in note.links { linkers[link.target, default: []].insert(notes[n].id) }
        }
        #expect(checked == vault.notes.reduce(0) { $0 + $1.links.count }, "seed \(seed)")
        for (n, note) in vault.notes.enumerated() {
            let back = try test.store.backlinks(of: notes[n].id)
            #expect(Set(back.map(\.id)) == linkers[n, default: []], "seed \(seed): backlinks of \(note.path)")
        }
    }
}
