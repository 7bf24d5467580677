import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes files`: the live notes folder, driven with the tools a person uses on files
/// (sed, an editor's rename-over, mv, rm, a new file) and carried to a second device by sync.
@Suite struct FilesCLITests {
    /// Runs `script` through sh in `folder`.
    func shell(_ cli: CLIRunner, in folder: String, _ script: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let result = try cli.runProgram("/bin/sh", ["-c", script], currentDirectory: URL(fileURLWithPath: folder))
        #expect(result.status == 0, "\(script): \(result.stderr)", sourceLocation: sourceLocation)
    }

    func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every note file under `folder`, relative, sorted.
    func files(_ folder: String) -> [String] {
        let paths = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        return paths.filter { $0.hasSuffix(".md") && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }.sorted()
    }

    func notes(_ cli: CLIRunner, at device: URL, trash: Bool = false) throws -> [[String: Any]] {
        let result = try cli.run(
            ["list", "--json", "--limit", "1000", "--data-dir", device.path] + (trash ? ["--trash"] : []))
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])
    }

    func show(_ cli: CLIRunner, at device: URL, _ reference: String) throws -> [String: Any] {
        let result = try cli.run(["show", reference, "--json", "--data-dir", device.path])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    }

    @Test func editsMovesDeletionsAndNewFilesMadeWithRealToolsReachTheStoreAndASecondDevice() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let (_, a, b) = try cli.devicesSharingACloudFolder()
        #expect(try cli.cn(at: a, "notebook", "create", "Work").status == 0)
        for (title, body) in [("Plan", "one\ntwo\nthree"), ("Spare", "spare text"), ("Gone", "soon gone")] {
            #expect(try cli.cn(at: a, "add", title, "--body", body).status == 0)
        }
        let folderA = cli.home.appendingPathComponent("notes-a").path
        let on = try cli.cn(at: a, "files", "on", folderA)
        #expect(on.status == 0, "\(on.stderr)")
        #expect(files(folderA) == ["notes/Gone.md", "notes/Plan.md", "notes/Spare.md"])
        #expect(text(folderA + "/notes/Plan.md")?.contains("one\ntwo\nthree") == true)

        // sed -i (a temporary file renamed over); an editor's save: its probe and swap file,
        // a backup, the new text written beside and renamed over; mv to another notebook's
        // folder; rm; a new file in the Work folder.
        try shell(cli, in: folderA, "sed -i 's/^two$/two, edited by sed/' notes/Plan.md")
        try shell(
            cli, in: folderA,
            """
            touch notes/4913 && rm notes/4913
            mkdir -p .git/refs && printf 'not a note' > .git/refs/notes.md && printf 'lock' > 'notes/.#Spare.md'
            printf 'swap' > notes/.Spare.md.swp
            cp notes/Spare.md notes/Spare.md~
            sed 's/spare text/spare text, saved by an editor/' notes/Spare.md > notes/.Spare.md.tmp
            mv notes/.Spare.md.tmp notes/Spare.md
            mv notes/Plan.md Work/Plan.md 2>/dev/null || (mkdir Work && mv notes/Plan.md Work/Plan.md)
            rm notes/Gone.md
            printf '# Fresh\\n\\nwritten in the folder\\n' > Work/Fresh.md
            """)
        let status = try cli.cn(at: a, "files", "status")
        #expect(status.stdout.contains("edited notes/Spare.md"), "\(status.stdout)")
        #expect(status.stdout.contains("moved notes/Plan.md → Work/Plan.md"), "\(status.stdout)")
        #expect(status.stdout.contains("deleted notes/Gone.md"), "\(status.stdout)")
        #expect(status.stdout.contains("new Work/Fresh.md"), "\(status.stdout)")
        let pass = try cli.cn(at: a, "files", "sync")
        #expect(pass.status == 0, "\(pass.stderr)")

        let plan = try show(cli, at: a, "Plan")
        #expect(plan["body"] as? String == "one\ntwo, edited by sed\nthree")
        #expect(plan["notebook"] as? String == "work")
        #expect(try show(cli, at: a, "Spare")["body"] as? String == "spare text, saved by an editor")
        #expect(try show(cli, at: a, "Fresh")["body"] as? String == "written in the folder")
        #expect(try show(cli, at: a, "Fresh")["notebook"] as? String == "work")
        #expect(try notes(cli, at: a, trash: true).compactMap { $0["title"] as? String } == ["Gone"])
        #expect(try notes(cli, at: a).count == 3, "swap, backup, lock files and .git/ are no notes")
        // The new file now carries its note's id; the mirror's writes do not come back.
        #expect(text(folderA + "/Work/Fresh.md")?.contains("id: ") == true)
        let again = try cli.cn(at: a, "files", "sync")
        #expect(again.stdout.isEmpty && again.stderr.isEmpty, "\(again.stdout)\(again.stderr)")
        #expect(try cli.cn(at: a, "files", "status").stdout.contains("in step"))

        // A second device: sync, then its own notes folder holds the same.
        #expect(try cli.cn(at: a, "sync").status == 0)
        #expect(try cli.cn(at: b, "sync").status == 0)
        let folderB = cli.home.appendingPathComponent("notes-b").path
        #expect(try cli.cn(at: b, "files", "on", folderB).status == 0)
        #expect(files(folderB) == ["Work/Fresh.md", "Work/Plan.md", "notes/Spare.md"])
        #expect(text(folderB + "/Work/Plan.md")?.contains("one\ntwo, edited by sed\nthree") == true)
        #expect(text(folderB + "/notes/Spare.md")?.contains("saved by an editor") == true)
        #expect(try notes(cli, at: b, trash: true).compactMap { $0["title"] as? String } == ["Gone"])

        // A rename in b's folder retitles the note; a's folder follows after a sync.
        try shell(cli, in: folderB, "mv Work/Fresh.md 'Work/Fresh start.md'")
        #expect(try cli.cn(at: b, "files", "sync").status == 0)
        #expect(try cli.cn(at: b, "sync").status == 0)
        #expect(try cli.cn(at: a, "sync").status == 0)
        #expect(try cli.cn(at: a, "files", "sync").status == 0)
        #expect(files(folderA) == ["Work/Fresh start.md", "Work/Plan.md", "notes/Spare.md"])
        #expect(text(folderA + "/Work/Fresh start.md")?.contains("title: \"Fresh start\"") == true)
    }

    /// A device with a notes folder, its note `Race` synced from `a`, and the file's path.
    func raceSetUp(_ cli: CLIRunner) throws -> (a: URL, b: URL, file: String) {
        let (_, a, b) = try cli.devicesSharingACloudFolder()
        #expect(try cli.cn(at: a, "add", "Race", "--body", "one\ntwo\nthree").status == 0)
        #expect(try cli.cn(at: a, "sync").status == 0)
        #expect(try cli.cn(at: b, "sync").status == 0)
        let folder = cli.home.appendingPathComponent("notes-b").path
        #expect(try cli.cn(at: b, "files", "on", folder).status == 0)
        return (a, b, folder + "/notes/Race.md")
    }

    @Test func aFileEditRacingASyncArrivalOnAnotherLineMerges() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let (a, b, file) = try raceSetUp(cli)
        #expect(try cli.cn(at: a, "edit", "Race", "--body", "one\ntwo\nthree from a").status == 0)
        #expect(try cli.cn(at: a, "sync").status == 0)
        try shell(cli, in: cli.home.path, "sed -i 's/^one$/one from the file/' '\(file)'")
        #expect(try cli.cn(at: b, "sync").status == 0)
        let pass = try cli.cn(at: b, "files", "sync")
        #expect(pass.status == 0 && !pass.stderr.contains("conflict"), "\(pass.stderr)")
        let merged = "one from the file\ntwo\nthree from a"
        #expect(try show(cli, at: b, "Race")["body"] as? String == merged)
        #expect(text(file)?.contains(merged + "\n") == true, "\(text(file) ?? "")")
    }

    @Test func aFileEditRacingASyncArrivalOnTheSameLineIsFlaggedWithBothKept() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let (a, b, file) = try raceSetUp(cli)
        #expect(try cli.cn(at: a, "edit", "Race", "--body", "one\ntwo from a\nthree").status == 0)
        #expect(try cli.cn(at: a, "sync").status == 0)
        try shell(cli, in: cli.home.path, "sed -i 's/^two$/two from the file/' '\(file)'")
        #expect(try cli.cn(at: b, "sync").status == 0)
        let pass = try cli.cn(at: b, "files", "sync")
        #expect(pass.stderr.contains("both are kept and the note is flagged"), "\(pass.stderr)")
        let note = try show(cli, at: b, "Race")
        #expect(note["syncState"] as? String == "conflict")
        let body = try #require(note["body"] as? String)
        #expect(body.contains("two from a") && body.contains("two from the file"), "\(body)")
        #expect(text(file)?.contains("two from a") == true && text(file)?.contains("two from the file") == true)
        #expect(try cli.cn(at: b, "conflicts").stdout.contains("Race"))
    }

    @Test func aFileThatDoesNotParseIsLeftAsItIsAndNamedByStatus() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let folder = cli.home.appendingPathComponent("notes").path
        try cli.add("Kept", body: "text")
        #expect(try cli.cn("files", "on", folder).status == 0)
        let broken = "---\ntitle: [never closed\n---\nbody\n"
        try Data(broken.utf8).write(to: URL(fileURLWithPath: folder + "/notes/Broken.md"))
        // Broken front matter in a note's own file: the note keeps its text, the file its bytes.
        try shell(cli, in: folder, "printf -- '---\\nid: [\\n---\\nlost?\\n' > notes/Kept.md")
        let status = try cli.cn("files", "status")
        #expect(
            status.stdout.contains("not read: notes/Broken.md: its front matter does not parse"), "\(status.stdout)")
        #expect(status.stdout.contains("not read: notes/Kept.md"), "\(status.stdout)")
        let pass = try cli.cn("files", "sync")
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(text(folder + "/notes/Broken.md") == broken)
        #expect(text(folder + "/notes/Kept.md") == "---\nid: [\n---\nlost?\n")
        #expect(try cli.note("Kept")["body"] as? String == "text")
        #expect(try cli.ids().count == 1)
    }

    @Test func offStopsAndOnNeedsAPlaceOutsideTheDataDirectoryAndTheCloudFolder() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let inside = try cli.cn("files", "on", cli.dataDirectory.appendingPathComponent("notes").path)
        #expect(inside.status == 1 && inside.stderr.contains("inside the data directory"), "\(inside.stderr)")
        #expect(try cli.cn("files", "sync").stderr.contains("no notes folder is set"))
        let cloud = cli.home.appendingPathComponent("cloud").path
        #expect(try cli.cn("sync", "init", cloud).status == 0)
        let inCloud = try cli.cn("files", "on", cloud + "/notes")
        #expect(inCloud.status == 1 && inCloud.stderr.contains("inside the cloud folder"), "\(inCloud.stderr)")
        let folder = cli.home.appendingPathComponent("notes").path
        #expect(try cli.cn("files", "on", folder).status == 0)
        #expect(try cli.cn("files", "off").stdout.contains("no longer kept in \(folder)"))
        try cli.add("After", body: "x")
        #expect(try cli.cn("files", "status").stdout.contains("no notes folder"))
        #expect(files(folder).isEmpty)
    }
}

/// `files --watch`, the real binary: changes cross within a second or so, each way.
@Suite struct FilesWatchCLITests {
    @Test func watchCarriesStoreChangesToFilesAndFileEditsToTheStore() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let folder = cli.home.appendingPathComponent("notes").path
        let id = try cli.add("Live", body: "start")
        #expect(try cli.cn("files", "on", folder).status == 0)
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["files", "--watch", "--data-dir", cli.dataDirectory.path]
        process.environment = ["HOME": cli.home.path, "XDG_CONFIG_HOME": cli.home.appendingPathComponent("cfg").path]
        let log = cli.home.appendingPathComponent("watch.log")
        #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let file = folder + "/notes/Live.md"
        func text(_ path: String) -> String {
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }

        var started = ContinuousClock.now
        #expect(try cli.cn("edit", id, "--body", "from the store").status == 0)
        #expect(await eventually { text(file).hasSuffix("\n\nfrom the store\n") })
        let toFile = ContinuousClock.now - started
        try cli.add("Second", body: "two")
        #expect(await eventually { FileManager.default.fileExists(atPath: folder + "/notes/Second.md") })

        started = ContinuousClock.now
        let edited = text(file).replacingOccurrences(of: "from the store", with: "from the file")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        #expect(await eventually { (try? cli.note(id)["body"] as? String) == "from the file" })
        let toStore = ContinuousClock.now - started
        print("files --watch: store → file \(toFile), file → store \(toStore) (each includes a CLI run)")

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text(log.path))")
    }
}

/// `sync --watch` keeps the notes folder in step too: a note from another device appears as a
/// file, and a file edit goes out to the other device.
@Suite struct FilesInSyncWatchCLITests {
    @Test func syncWatchKeepsTheNotesFolderInStepWithTheOtherDevice() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let (_, a, b) = try cli.devicesSharingACloudFolder()
        let folder = cli.home.appendingPathComponent("notes-b").path
        #expect(try cli.cn(at: b, "files", "on", folder).status == 0)
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["sync", "--watch", "--debounce", "0.1", "--data-dir", b.path]
        process.environment = ["HOME": cli.home.path, "XDG_CONFIG_HOME": cli.home.appendingPathComponent("cfg").path]
        let log = cli.home.appendingPathComponent("watch.log")
        #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        func text(_ path: String) -> String {
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }

        #expect(try cli.cn(at: a, "add", "From a", "--body", "sent by a").status == 0)
        #expect(try cli.cn(at: a, "sync").status == 0)
        let file = folder + "/notes/From a.md"
        #expect(
            await eventually(timeout: .seconds(30)) { text(file).hasSuffix("\n\nsent by a\n") }, "\(text(log.path))")

        let edited = text(file).replacingOccurrences(of: "sent by a", with: "edited in b's folder")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        let arrived = await eventually(timeout: .seconds(30)) {
            _ = try? cli.cn(at: a, "sync")
            let shown = try? cli.run(["show", "From a", "--json", "--data-dir", a.path])
            return shown.map { String(decoding: $0.stdoutData, as: UTF8.self).contains("edited in b's folder") }
                ?? false
        }
        #expect(arrived, "\(text(log.path))")
        process.terminate()
        process.waitUntilExit()
    }
}

/// A note's attachments sit beside its file, as export writes them, and move with it.
@Suite struct FilesAttachmentsCLITests {
    @Test func attachmentsAreWrittenBesideTheNoteAndMoveWithIt() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("With file", body: "see the picture")
        let source = cli.home.appendingPathComponent("photo.jpg")
        try Data("jpeg bytes".utf8).write(to: source)
        #expect(try cli.cn("attach", id, source.path).status == 0)
        #expect(try cli.cn("notebook", "create", "Work").status == 0)
        let folder = cli.home.appendingPathComponent("notes").path
        #expect(try cli.cn("files", "on", folder).status == 0)
        let attached = folder + "/notes/With file/photo.jpg"
        #expect(FileManager.default.contents(atPath: attached) == Data("jpeg bytes".utf8))
        let note = String(
            decoding: FileManager.default.contents(atPath: folder + "/notes/With file.md") ?? Data(), as: UTF8.self)
        #expect(note.contains("attachments: [\"photo.jpg\"]"), "\(note)")
        #expect(try cli.cn("files", "sync").stdout.isEmpty, "the attachment folder is no note and no change")

        #expect(try cli.cn("move", id, "--notebook", "Work").status == 0)
        #expect(try cli.cn("files", "sync").status == 0)
        #expect(FileManager.default.contents(atPath: folder + "/Work/With file/photo.jpg") == Data("jpeg bytes".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder + "/notes/With file"))
        #expect(try cli.note(id)["body"] as? String == "see the picture")
    }
}

/// With an encrypted cloud folder the notes folder works the same: its files are plaintext on
/// this disk (like the store), and what reaches the other device went through the sealed folder.
@Suite struct FilesEncryptedCLITests {
    @Test func aFileEditReachesTheOtherDeviceThroughAnEncryptedFolder() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let (cloud, a, b) = try cli.devicesSharingACloudFolder(encrypted: true)
        #expect(try cli.cn(at: a, "add", "Secret plan", "--body", "plain words").status == 0)
        let folder = cli.home.appendingPathComponent("notes-a").path
        #expect(try cli.cn(at: a, "files", "on", folder).status == 0)
        let file = folder + "/notes/Secret plan.md"
        let text = String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
        #expect(text.hasSuffix("\n\nplain words\n"), "the file is plaintext: \(text)")
        try Data(text.replacingOccurrences(of: "plain words", with: "edited in the file").utf8)
            .write(to: URL(fileURLWithPath: file), options: .atomic)
        #expect(try cli.cn(at: a, "files", "sync").status == 0)
        #expect(try cli.cn(at: a, "sync").status == 0)
        #expect(try cli.cn(at: b, "sync").status == 0)
        let shown = try cli.run(["show", "Secret plan", "--data-dir", b.path])
        #expect(shown.stdout.contains("edited in the file"), "\(shown.stderr)")
        // Nothing of the note's text is in the cloud folder in the clear.
        let inCloud = FileManager.default.enumerator(atPath: cloud)?.compactMap { $0 as? String } ?? []
        for name in inCloud {
            let bytes = FileManager.default.contents(atPath: cloud + "/" + name) ?? Data()
            #expect(!String(decoding: bytes, as: UTF8.self).contains("edited in the file"), "\(name)")
        }
    }
}
