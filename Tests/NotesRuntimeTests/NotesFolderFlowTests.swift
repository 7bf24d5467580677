import Foundation
import NotesFiles
import NotesRuntime
import NotesStore
import NotesSync
import Testing

/// The live notes folder while the app runs (issue 26), stepped in-process with the keeper the
/// app runs (`RuntimeOptions.notesFolder`, every 250 ms on its own lane): what is typed reaches
/// its file at the first tick after the autosave, a file saved by another program reaches the
/// list and the open editor as a sync arrival does, and a second keeper (`files --watch`) does
/// not fight the app's.
@Suite struct NotesFolderFlowTests {
    /// A notes folder beside the stepped runtime's data directory, and the app's keeper of it.
    final class Folder {
        let root: String
        var keeper: MirrorKeeper?

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-folder-\(UUID())").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// Sets up `options` as `TUI.keepNotesFolder` does.
        func keep(_ store: NoteStore, _ options: inout RuntimeOptions) throws {
            let keeper = try Self.keeper(store, root)
            let interval = options.notesFolderInterval
            options.notesFolder = {
                let step = keeper.tick(elapsed: interval)
                return NotesFolderTick(line: step.statusLine, changedNotes: step.changedNotes)
            }
            self.keeper = keeper
        }

        static func keeper(_ store: NoteStore, _ root: String) throws -> MirrorKeeper {
            let data = store.directory.path
            return try MirrorKeeper(store: store, dataDirectory: data) {
                try FolderMirror(
                    store: store, folder: root, dataDirectory: data, resolve: ConflictResolver(strategy: .merge).resolve
                )
            }
        }

        func text(_ path: String) -> String? {
            FileManager.default.contents(atPath: root + "/" + path).map { String(decoding: $0, as: UTF8.self) }
        }

        func write(_ path: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/" + path), options: .atomic)
        }
    }

    @Test func whatIsTypedReachesItsFileAndAFileSavedElsewhereReachesTheListAndTheEditor() throws {
        let folder = try Folder()
        let app = try SteppedRuntime(
            seed: { store in try store.create(title: "Groceries", body: "milk") },
            configureWithStore: { store, options in try folder.keep(store, &options) })
        app.expectScreen("Groceries")
        #expect(folder.text("notes/Groceries.md") == nil, "nothing is written before the first tick")
        app.advance(by: .milliseconds(250))
        #expect(folder.text("notes/Groceries.md")?.hasSuffix("\n\nmilk\n") == true)

        app.press("<Enter>")
        app.press("<Down><End>, butter")
        app.advance(by: .milliseconds(1500))  // the autosave
        #expect(try app.note("Groceries")?.body == "milk, butter")
        app.advance(by: .milliseconds(250))
        #expect(folder.text("notes/Groceries.md")?.hasSuffix("\n\nmilk, butter\n") == true)

        // vim saves the open note's file: the editor shows it at the next tick.
        let saved = try #require(folder.text("notes/Groceries.md"))
        try folder.write("notes/Groceries.md", saved.replacingOccurrences(of: "butter", with: "butter and jam"))
        app.settle()
        #expect(!app.screen.contains("and jam"))
        app.advance(by: .milliseconds(250))
        app.expectScreen("milk, butter and jam")
        #expect(try app.note("Groceries")?.body == "milk, butter and jam")

        // Another program makes a new file: a new note in the list.
        app.press("<Esc>")
        try folder.write("notes/From vim.md", "bought at the market\n")
        app.advance(by: .milliseconds(250))
        app.expectScreen("From vim")
        #expect(try app.note("From vim")?.body == "bought at the market")
    }

    @Test func aSecondKeeperSaysTheFolderIsKeptByTheAppAndTakesOverWhenTheAppQuits() throws {
        let folder = try Folder()
        let app = try SteppedRuntime(
            seed: { store in try store.create(title: "Plan", body: "one") },
            configureWithStore: { store, options in try folder.keep(store, &options) })
        app.advance(by: .milliseconds(250))
        #expect(folder.text("notes/Plan.md") != nil)
        // `files --watch` started beside the app (another process; a lock of its own here too).
        let other = try Folder.keeper(try NoteStore(directory: app.directory), folder.root)
        let said = other.tick(elapsed: .zero).line
        let pid = ProcessInfo.processInfo.processIdentifier
        #expect(said?.contains("another cloudnotes (process \(pid)) keeps it in step") == true, "\(said ?? "")")
        #expect(other.tick(elapsed: .zero).line == nil, "said once")

        // The app quits after typing: its last save reaches the file before the other keeper runs.
        app.press("<Enter><Down><End> two")
        app.press("<Esc>")
        app.press("q")
        #expect(app.runtime.exited == .quit)
        #expect(folder.text("notes/Plan.md")?.hasSuffix("\n\none\n") == true)
        #expect(folder.keeper?.finish().line == nil)
        #expect(folder.text("notes/Plan.md")?.hasSuffix("\n\none two\n") == true)

        // Now the other keeper mirrors: a file edit reaches the store through it.
        let saved = try #require(folder.text("notes/Plan.md"))
        try folder.write("notes/Plan.md", saved.replacingOccurrences(of: "one two", with: "one two three"))
        if case .keptElsewhere = other.tick(elapsed: .zero) { Issue.record("the app's keeper has ended") }
        #expect(try app.note("Plan")?.body == "one two three")
    }
}
