import Foundation
import NotesCore
import Testing

@testable import NotesStore

/// `Note.frontMatter`, the kept keys of an imported Markdown file: stored (migration
/// `frontmatter-1`), part of the revision, kept through edits, and a change of it is a change.
@Suite struct NoteStoreFrontMatterTests {
    @Test func keptKeysAreStoredVersionedAndSurviveAnEdit() throws {
        let t = try TestStore()
        let kept = #"{"aliases":["K"],"rating":4}"#
        let note = Note(
            title: "Trip", body: "b", createdAt: Date(timeIntervalSince1970: 1_600_000_000), frontMatter: kept)
        #expect(try t.store.importNotes([note]).created == 1)
        #expect(try t.store.note(note.id)?.frontMatter == kept)
        #expect(try t.store.importNotes([note]).unchanged == 1)
        var changed = note
        changed.frontMatter = #"{"aliases":["K","L"],"rating":4}"#
        #expect(try t.store.importNotes([changed]).updated == 1)
        let edited = try t.store.update(note.id) { $0.body = "edited" }
        #expect(edited.frontMatter == changed.frontMatter)
        #expect(try t.store.note(note.id)?.frontMatter == changed.frontMatter)
        let history = try t.store.history(note.id)
        #expect(history.count == 3)
        #expect(history.first?.fields?.frontMatter == changed.frontMatter)
        #expect(history.last?.fields?.frontMatter == kept)
    }
}
