import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// The kept front matter of an imported note (`Note.frontMatter`, SYNC-FORMAT "Bodies") travels
/// with the note, and an edit of the body on another device keeps it.
@Suite struct FrontMatterSyncTests {
    @Test func keptFrontMatterSyncsAndSurvivesAnEditElsewhere() async throws {
        let folder = TestFolder.memory().0
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        let kept = #"{"aliases":["Kraków trip"],"cssclasses":["wide"]}"#
        let note = Note(
            title: "Trip", body: "plan", createdAt: Date(timeIntervalSince1970: 1_700_000_000), frontMatter: kept)
        _ = try a.store.importNotes([note])
        _ = await a.sync()
        _ = await b.sync()
        let arrived = try #require(try b.store.note(note.id))
        #expect(arrived.frontMatter == kept)
        #expect(arrived.headRev == (try a.store.note(note.id))?.headRev)
        _ = try b.store.update(note.id) { $0.body = "plan, edited on b" }
        _ = await b.sync()
        _ = await a.sync()
        let back = try #require(try a.store.note(note.id))
        #expect(back.body == "plan, edited on b" && back.frontMatter == kept)
    }
}
