import Foundation
import NotesCore
import NotesFiles
import NotesStore
import NotesSync
import Testing

/// A keeper told of the folder's changes by inotify: a tick with nothing new walks nothing, an
/// edit is read from its event, lost events fall back to a walk, a new folder is watched, and
/// the mirror's own writes do not come back. Ticks are stepped; inotify's events are queued by
/// the kernel before the write that makes them returns, so no tick waits for them.
@Suite struct FolderEventsTests {
    let tick = Duration.milliseconds(250)

    /// A keeper over `titles` notes, past its first pass and the tick that sees its own writes.
    private func settled(_ fixture: MirrorFixture, _ titles: [String]) throws -> (MirrorKeeper, [Note]) {
        let notes = try titles.map { try fixture.store.create(title: $0, body: "about \($0)") }
        let keeper = try fixture.keeper()
        _ = keeper.tick(elapsed: .zero)
        #expect(keeper.lastLook.walked && keeper.lastLook.passed)
        _ = keeper.tick(elapsed: tick)
        _ = keeper.tick(elapsed: tick)
        return (keeper, notes)
    }

    private func edit(_ file: String, _ from: String, _ to: String) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: from, with: to)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
    }

    /// Another program saves `note`'s file with `body`: the next tick reads it from its event,
    /// with one stat, no walk, and the one head it changed.
    private func expectReadFromItsEvent(_ keeper: MirrorKeeper, _ fixture: MirrorFixture, _ note: Note, _ body: String)
        throws
    {
        try edit(fixture.folder + "/notes/\(note.title).md", "about \(note.title)", body)
        _ = keeper.tick(elapsed: tick)
        #expect(keeper.lastLook == MirrorKeeper.Look(walked: false, statted: 1, passed: true, heads: 1))
        #expect(try fixture.store.note(note.id)?.body == body)
    }

    @Test func aQuietTickWalksNoFile() throws {
        let fixture = try MirrorFixture("events-quiet")
        defer { fixture.remove() }
        let (keeper, _) = try settled(fixture, ["One", "Two", "Three"])
        for _ in 0..<3 {
            #expect(keeper.tick(elapsed: tick).line == nil)
            #expect(keeper.lastLook == MirrorKeeper.Look(walked: false, statted: 0, passed: false))
        }
    }

    @Test func anEditByAnotherProgramIsReadFromItsEvent() throws {
        let fixture = try MirrorFixture("events-edit")
        defer { fixture.remove() }
        let (keeper, notes) = try settled(fixture, ["One", "Two", "Three"])
        try expectReadFromItsEvent(keeper, fixture, notes[1], "edited elsewhere")
    }

    @Test func theMirrorsOwnWritesDoNotComeBack() throws {
        let fixture = try MirrorFixture("events-own")
        defer { fixture.remove() }
        let (keeper, notes) = try settled(fixture, ["One", "Two"])
        try fixture.store.update(notes[0].id) { $0.body = "from the store" }
        _ = keeper.tick(elapsed: tick)
        // Only the changed note's head is read from the store.
        #expect(keeper.lastLook == MirrorKeeper.Look(walked: false, statted: 0, passed: true, heads: 1))
        let file = fixture.folder + "/notes/One.md"
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasSuffix("\n\nfrom the store\n"))
        let revisions = try fixture.store.history(notes[0].id).count
        // The next tick reads the rename the mirror made: the stat it recorded, no pass.
        _ = keeper.tick(elapsed: tick)
        #expect(keeper.lastLook == MirrorKeeper.Look(walked: false, statted: 1, passed: false))
        _ = keeper.tick(elapsed: tick)
        #expect(keeper.lastLook == MirrorKeeper.Look(walked: false, statted: 0, passed: false))
        #expect(try fixture.store.history(notes[0].id).count == revisions)
    }

    @Test func aNewFolderIsWatched() throws {
        let fixture = try MirrorFixture("events-folder")
        defer { fixture.remove() }
        let (keeper, _) = try settled(fixture, ["One"])
        let projects = fixture.folder + "/Projects"
        try FileManager.default.createDirectory(atPath: projects, withIntermediateDirectories: false)
        _ = keeper.tick(elapsed: tick)
        #expect(!keeper.lastLook.walked)
        try Data("# Plan\n\nthe plan\n".utf8).write(to: URL(fileURLWithPath: projects + "/Plan.md"))
        _ = keeper.tick(elapsed: tick)
        // A new note in a new notebook: only its head is read (the new folder moves no other's).
        #expect(keeper.lastLook == MirrorKeeper.Look(walked: false, statted: 1, passed: true, heads: 1))
        // A folder moved in whole, its file inside: no event of the file's own.
        let outside = fixture.home.appendingPathComponent("Ideas").path
        try FileManager.default.createDirectory(atPath: outside + "/Later", withIntermediateDirectories: true)
        try Data("# Someday\n\nmaybe\n".utf8).write(to: URL(fileURLWithPath: outside + "/Later/Someday.md"))
        try FileManager.default.moveItem(atPath: outside, toPath: fixture.folder + "/Ideas")
        _ = keeper.tick(elapsed: tick)
        #expect(!keeper.lastLook.walked && keeper.lastLook.passed)
        // And its folder below is watched too.
        try edit(fixture.folder + "/Ideas/Later/Someday.md", "maybe", "surely")
        _ = keeper.tick(elapsed: tick)
        #expect(keeper.lastLook == MirrorKeeper.Look(walked: false, statted: 1, passed: true, heads: 1))
        let bodies = try fixture.store.allNotes(includeTrash: false).map(\.body)
        #expect(bodies.contains("the plan") && bodies.contains("surely"), "\(bodies)")
    }

    /// More events than the kernel queues (`IN_Q_OVERFLOW`): the ones after are lost, so the
    /// tick walks, and an edit whose event was lost is still read.
    @Test func lostEventsFallBackToAWalk() throws {
        let fixture = try MirrorFixture("events-lost")
        defer { fixture.remove() }
        let (keeper, notes) = try settled(fixture, ["One", "Two"])
        let limit =
            try Int(
                String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 16384
        // Two ignored files touched in turn (an event the kernel does not fold into the last).
        let ignored = [fixture.folder + "/.a", fixture.folder + "/.b"]
        for path in ignored { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        for index in 0...limit {
            let date = Date(timeIntervalSince1970: Double(1_000_000 + index))
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: ignored[index % 2])
        }
        try edit(fixture.folder + "/notes/One.md", "about One", "edited after the flood")
        _ = keeper.tick(elapsed: tick)
        #expect(keeper.lastLook.walked && keeper.lastLook.passed)
        #expect(try fixture.store.note(notes[0].id)?.body == "edited after the flood")
        // Watching again: the next edit is an event.
        _ = keeper.tick(elapsed: tick)
        try expectReadFromItsEvent(keeper, fixture, notes[1], "edited later")
    }

    /// Without inotify, every tick walks the folder (as before it was used).
    @Test func withoutInotifyEachTickWalks() throws {
        let fixture = try MirrorFixture("events-off")
        defer { fixture.remove() }
        let note = try fixture.store.create(title: "One", body: "about One")
        let keeper = try fixture.keeper(watchEvents: false)
        _ = keeper.tick(elapsed: .zero)
        _ = keeper.tick(elapsed: tick)
        #expect(keeper.lastLook.walked)
        try edit(fixture.folder + "/notes/One.md", "about One", "polled")
        _ = keeper.tick(elapsed: tick)
        #expect(keeper.lastLook.walked && keeper.lastLook.passed)
        #expect(try fixture.store.note(note.id)?.body == "polled")
    }

    /// The sweep (the net for what inotify misses) walks the folder but reads from the store
    /// only the heads that changed and those of notes with attachments (to write back a copy
    /// removed from the folder): at 100k notes it does not stop the keeper for seconds.
    @Test func aSweepReadsOnlyTheChangedHeadsAndWritesBackAttachments() throws {
        let fixture = try MirrorFixture("events-sweep")
        defer { fixture.remove() }
        let (keeper, notes) = try settled(fixture, ["One", "Two", "Three", "Four", "Five"])
        _ = keeper.tick(elapsed: .seconds(3601))
        #expect(keeper.lastLook.walked && keeper.lastLook.heads == 0, "\(keeper.lastLook)")
        try fixture.store.update(notes[2].id) { $0.body = "changed in the store" }
        let source = fixture.home.appendingPathComponent("doc.txt").path
        try Data("attached".utf8).write(to: URL(fileURLWithPath: source))
        try fixture.store.attach(
            notes[0].id, [try fixture.store.addAttachmentContent(fromFile: source, name: "doc.txt", maxBytes: 1 << 20)])
        _ = keeper.tick(elapsed: tick)
        let copy = fixture.folder + "/notes/One/doc.txt"
        #expect(FileManager.default.contents(atPath: copy) == Data("attached".utf8))
        _ = keeper.tick(elapsed: tick)
        _ = keeper.tick(elapsed: tick)
        unlink(copy)
        _ = keeper.tick(elapsed: .seconds(3601))
        #expect(keeper.lastLook.walked && keeper.lastLook.heads == 0, "\(keeper.lastLook)")
        #expect(FileManager.default.contents(atPath: copy) == Data("attached".utf8), "written back")
        #expect(try String(contentsOfFile: fixture.folder + "/notes/Three.md", encoding: .utf8).contains("changed in"))
    }

    /// A note added beside one of the same title, retitled, moved or trashed names its namesakes'
    /// files again from the notes the keeper holds, and a notebook renamed its notes': the pass
    /// reads only the heads that changed.
    @Test func aNoteAddedRetitledMovedOrTrashedReadsOnlyItsHead() throws {
        let fixture = try MirrorFixture("events-names")
        defer { fixture.remove() }
        _ = try fixture.store.createNotebook(named: "Work")
        let (keeper, notes) = try settled(fixture, ["One", "Two", "Three", "Four"])
        let notesFolder = fixture.folder + "/notes/"
        func expectPass(heads: Int, _ comment: Comment) {
            #expect(keeper.lastLook.passed && !keeper.lastLook.walked && keeper.lastLook.heads == heads, comment)
        }
        let twin = try fixture.store.create(title: "Two", body: "another Two")
        _ = keeper.tick(elapsed: tick)
        expectPass(heads: 1, "added")
        let twinFile = notesFolder + "Two (\(twin.idString.prefix(8))).md"
        #expect(try String(contentsOfFile: twinFile, encoding: .utf8).hasSuffix("another Two\n"))
        #expect(try String(contentsOfFile: notesFolder + "Two.md", encoding: .utf8).hasSuffix("about Two\n"))
        try fixture.store.update(notes[0].id) { $0.title = "Uno" }
        _ = keeper.tick(elapsed: tick)
        expectPass(heads: 1, "retitled")
        #expect(FileManager.default.fileExists(atPath: notesFolder + "Uno.md"))
        #expect(!FileManager.default.fileExists(atPath: notesFolder + "One.md"))
        _ = try fixture.store.move(notes[3].id, toNotebook: "Work")
        _ = keeper.tick(elapsed: tick)
        expectPass(heads: 1, "moved")
        #expect(FileManager.default.fileExists(atPath: fixture.folder + "/Work/Four.md"))
        #expect(!FileManager.default.fileExists(atPath: notesFolder + "Four.md"))
        // The older Two leaves: its file goes, and the twin takes the plain name.
        _ = try fixture.store.trash(notes[1].id)
        _ = keeper.tick(elapsed: tick)
        expectPass(heads: 0, "trashed")
        #expect(try String(contentsOfFile: notesFolder + "Two.md", encoding: .utf8).hasSuffix("another Two\n"))
        #expect(!FileManager.default.fileExists(atPath: twinFile))
        // A notebook renamed moves its folder, and one created moves none: no head is read.
        _ = try fixture.store.renameNotebook("Work", to: "Projects")
        _ = keeper.tick(elapsed: tick)
        expectPass(heads: 0, "notebook renamed")
        let four = fixture.folder + "/Projects/Four.md"
        #expect(try String(contentsOfFile: four, encoding: .utf8).contains("notebookName: \"Projects\""))
        #expect(!FileManager.default.fileExists(atPath: fixture.folder + "/Work"))
        // Renamed to names with the same folder (`Pro-jects`): no file moves, yet each says the
        // new name, by a keeper's tick and by another process's full pass.
        _ = try fixture.store.renameNotebook("Projects", to: "Pro:jects")
        _ = keeper.tick(elapsed: tick)
        _ = try fixture.store.renameNotebook("Pro:jects", to: "Pro?jects")
        _ = keeper.tick(elapsed: tick)
        expectPass(heads: 0, "renamed within its folder")
        let moved = fixture.folder + "/Pro-jects/Four.md"
        #expect(try String(contentsOfFile: moved, encoding: .utf8).contains("notebookName: \"Pro?jects\""))
        _ = try fixture.store.renameNotebook("Pro?jects", to: "Pro*jects")
        #expect(try fixture.mirror().status().toFolder == ["write Pro-jects/Four.md"])
        #expect(try fixture.mirror().sync().toFolder == ["wrote Pro-jects/Four.md"])
        #expect(try String(contentsOfFile: moved, encoding: .utf8).contains("notebookName: \"Pro*jects\""))
        _ = keeper.tick(elapsed: tick)
        _ = try fixture.store.createNotebook(named: "Empty")
        _ = keeper.tick(elapsed: tick)
        expectPass(heads: 0, "notebook created")
        _ = keeper.tick(elapsed: tick)
        _ = keeper.tick(elapsed: tick)
        // What a pass of every note would write now: nothing.
        #expect(try fixture.mirror().sync().toFolder == [])
    }
}
