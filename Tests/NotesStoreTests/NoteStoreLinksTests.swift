import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

@Suite("Links and backlinks in the store")
struct NoteStoreLinksTests {
    @Test func linksResolveByFoldedTitleAndBacklinksFollowEdits() throws {
        let t = try TestStore()
        let store = t.store
        let target = try store.create(title: "Trip to Zürich", body: "")
        let a = try store.create(title: "A", body: "see [[trip to zurich#Day 1|the trip]] and [[Nowhere]]")
        let b = try store.create(title: "B", body: "[file](Trip%20to%20Z%C3%BCrich.md)")
        let links = try store.links(of: a.id)
        #expect(links.map(\.target) == ["trip to zurich", "Nowhere"])
        #expect(links.map { $0.note?.id } == [target.id, nil])
        #expect(links.first?.heading == "Day 1" && links.first?.shown == "the trip")
        #expect(try store.backlinks(of: target.id).map(\.id) == [a.id, b.id])
        // An edit that drops the link, a trashed source, a purge: the index follows each write.
        try store.update(a.id) { $0.body = "no links now" }
        #expect(try store.backlinks(of: target.id).map(\.id) == [b.id])
        _ = try store.trash(b.id)
        #expect(try store.backlinks(of: target.id).isEmpty)
        _ = try store.restore(b.id)
        try store.purge(b.id)
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM note_link") } == 0)
        // A note created later with the linked title makes the dangling link lead to it.
        let nowhere = try store.create(title: "nowhere", body: "")
        try store.update(a.id) { $0.body = "[[Nowhere]]" }
        #expect(try store.links(of: a.id).first?.note?.id == nowhere.id)
    }

    @Test func aLinkToAnAliasLeadsToTheNoteWithThatAliasUnlessANoteHasThatTitle() throws {
        let t = try TestStore()
        let store = t.store
        let target = try store.create(title: "Project plan", body: "")
        try store.update(target.id) { $0.frontMatter = #"{"aliases":["Big Plan","roadmap"]}"# }
        let source = try store.create(title: "Notes", body: "see [[big plan]] and [[Roadmap|the map]]")
        #expect(try store.links(of: source.id).map { $0.note?.id } == [target.id, target.id])
        #expect(try store.backlinks(of: target.id).map(\.id) == [source.id])
        #expect(try store.resolveLink("ROADMAP", folder: nil, from: source.id) == target.id)
        // A note titled like the alias takes the link (a title wins over an alias).
        let titled = try store.create(title: "Big plan", body: "")
        #expect(try store.links(of: source.id).map { $0.note?.id } == [titled.id, target.id])
        #expect(try store.backlinks(of: titled.id).map(\.id) == [source.id])
        // Aliases follow edits of the front matter.
        try store.update(target.id) { $0.frontMatter = #"{"aliases":["elsewhere"]}"# }
        #expect(try store.links(of: source.id).map { $0.note?.id } == [titled.id, nil])
        #expect(try store.backlinks(of: target.id).isEmpty)
    }

    @Test("ambiguous titles: the path's notebook, then the linking note's, then the default, then the oldest")
    func ambiguityPrefersTheNearestNote() throws {
        let t = try TestStore()
        let store = t.store
        let inNotes = try store.create(title: "Index", body: "")
        t.advance(1)
        let inWork = try store.create(title: "Index", body: "", zone: "work")
        t.advance(1)
        let inHome = try store.create(title: "Index", body: "", zone: "home")
        let fromWork = try store.create(title: "w", body: "[[Index]]", zone: "work")
        let fromElsewhere = try store.create(title: "e", body: "[[Index]]", zone: "travel")
        let byPath = try store.create(title: "p", body: "[[Home/Index]] [x](home/Index.md)", zone: "work")
        #expect(try store.links(of: fromWork.id).first?.note?.id == inWork.id)
        #expect(try store.links(of: fromElsewhere.id).first?.note?.id == inNotes.id)
        #expect(try store.links(of: byPath.id).map { $0.note?.id } == [inHome.id, inHome.id])
        #expect(try store.backlinks(of: inWork.id).map(\.id) == [fromWork.id])
        #expect(try store.backlinks(of: inNotes.id).map(\.id) == [fromElsewhere.id])
        #expect(try store.backlinks(of: inHome.id).map(\.id) == [byPath.id])
        // Without the default notebook's note, the oldest of the rest wins.
        _ = try store.trash(inNotes.id)
        #expect(try store.links(of: fromElsewhere.id).first?.note?.id == inWork.id)
    }

    @Test func renameRewritesOnlyTheLinksThatLedToTheNote() throws {
        let t = try TestStore()
        let store = t.store
        let target = try store.create(title: "Old Name", body: "")
        let other = try store.create(title: "Old Name", body: "", zone: "elsewhere")
        let source = try store.create(
            title: "S", body: "[[Old Name]] [[old name#h|shown]] `[[Old Name]]` [m](Old%20Name.md) [[Other]]")
        let far = try store.create(title: "F", body: "[[Old Name]]", zone: "elsewhere")
        let kept = try store.rename(target.id, to: "Kept", updateLinks: false)
        #expect(kept.linking == 1)
        #expect(try store.note(source.id)?.body.hasPrefix("[[Old Name]]") == true)
        let (renamed, changed) = try store.rename(target.id, to: "New (2)", updateLinks: true)
        #expect(renamed.title == "New (2)" && changed == 0, "the links no longer lead to it after the first rename")
        _ = try store.rename(target.id, to: "Old Name", updateLinks: false)
        let (_, rewritten) = try store.rename(target.id, to: "New (2)", updateLinks: true)
        #expect(rewritten == 1)
        #expect(
            try store.note(source.id)?.body
                == "[[New (2)]] [[New (2)#h|shown]] `[[Old Name]]` [m](New%20%282%29.md) [[Other]]")
        #expect(try store.note(far.id)?.body == "[[Old Name]]", "it leads to the note in its own notebook")
        #expect(try store.backlinks(of: target.id).map(\.id) == [source.id])
        #expect(try store.backlinks(of: other.id).map(\.id) == [far.id])
    }

    /// The app saves a new title as it is typed, then asks: links are counted and rewritten
    /// by the old title after the fact, with the same choice as `rename --update-links`.
    @Test func linksToAnOldTitleAreCountedAndRewrittenAfterTheNoteWasRetitled() throws {
        let t = try TestStore()
        let store = t.store
        let target = try store.create(title: "Old Name", body: "")
        let other = try store.create(title: "Old Name", body: "", zone: "elsewhere")
        let source = try store.create(title: "S", body: "[[Old Name]] [m](Old%20Name.md) [[Other]]")
        let far = try store.create(title: "F", body: "[[old name]]", zone: "elsewhere")
        let trashed = try store.create(title: "T", body: "[[Old Name]]")
        _ = try store.trash(trashed.id)
        try store.update(target.id) { $0.title = "New Name" }
        #expect(try store.notesLinking(to: target.id, byOldTitle: "Old Name") == 1)
        // With the target retitled, S's link leads to the other note of that title too.
        #expect(try store.notesLinking(to: other.id, byOldTitle: "Old Name") == 2)
        #expect(try store.notesLinking(to: target.id, byOldTitle: "Nothing") == 0)
        #expect(try store.updateLinks(to: target.id, fromOldTitle: "Old Name") == 1)
        #expect(try store.note(source.id)?.body == "[[New Name]] [m](New%20Name.md) [[Other]]")
        #expect(try store.note(far.id)?.body == "[[old name]]", "it leads to the note in its own notebook")
        #expect(try store.note(trashed.id)?.body == "[[Old Name]]")
        #expect(try store.backlinks(of: target.id).map(\.id) == [source.id])
        #expect(try store.updateLinks(to: target.id, fromOldTitle: "Old Name") == 0, "nothing left to rewrite")
    }

    @Test func aDatabaseWithoutTheLinkIndexBuildsItOnOpen() throws {
        let t = try TestStore()
        let target = try t.store.create(title: "T", body: "")
        let source = try t.store.create(title: "S", body: "[[T]]")
        // As a build before links-1 left it: no link rows, derived data of version 1.
        try t.store.write { db in
            try db.execute(sql: "DELETE FROM note_link; PRAGMA user_version = 1")
        }
        let reopened = try NoteStore(directory: t.directory)
        #expect(try reopened.backlinks(of: target.id).map(\.id) == [source.id])
    }
}
