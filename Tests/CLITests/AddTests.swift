import Foundation
import Testing

@Suite struct AddTests {
    @Test func bodyFromOptionFileAndStdinWithFavoriteAndTags() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let fromOption = try cli.add("Option", body: "from --body", "--fav", "--tag", "work", "--tag", "café")
        let file = cli.home.appendingPathComponent("body.txt")
        try Data("from a file\n".utf8).write(to: file)
        let fromFile = try cli.cn("add", "File", "--file", file.path)
        let fromStdin = try cli.cn("add", "Stdin", stdin: "from stdin\n\n")
        let fromDash = try cli.cn("add", "Dash", "--file", "-", stdin: "from dash")
        for result in [fromFile, fromStdin, fromDash] { #expect(result.status == 0, "\(result.stderr)") }

        let option = try cli.note(fromOption)
        #expect(option["title"] as? String == "Option")
        #expect(option["body"] as? String == "from --body")
        #expect(option["isFavorite"] as? Bool == true)
        #expect(option["tags"] as? [String] == ["café", "work"])
        #expect(option["notebook"] as? String == "notes")
        #expect(try cli.note(fromFile.stdout.trimmingCharacters(in: .newlines))["body"] as? String == "from a file\n")
        #expect(try cli.note(fromStdin.stdout.trimmingCharacters(in: .newlines))["body"] as? String == "from stdin\n\n")
        let dash = try cli.note(fromDash.stdout.trimmingCharacters(in: .newlines))
        #expect(dash["body"] as? String == "from dash")
        #expect(dash["isFavorite"] as? Bool == false)
        #expect(dash["tags"] as? [String] == [])
    }

    @Test func aBodyOrTitleStartingWithADashIsText() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let list = "- tag v1.2\n- update the changelog"
        let added = try cli.cn("add", "Release", "--body", list, "--fav")
        #expect(added.status == 0, "\(added.stderr)")
        let id = added.stdout.trimmingCharacters(in: .newlines)
        #expect(try cli.note(id)["body"] as? String == list)
        #expect(try cli.note(id)["isFavorite"] as? Bool == true)
        let edited = try cli.cn("edit", id, "--title", "-draft-", "--body", "-x")
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(try cli.note(id)["title"] as? String == "-draft-")
        #expect(try cli.note(id)["body"] as? String == "-x")
    }

    @Test func jsonPrintsTheNewNote() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.cn("add", "Plan", "--body", "step 1", "--tag", "todo", "--notebook", "work", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let note = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let id = try #require(note["id"] as? String)
        #expect(UUID(uuidString: id) != nil && id == id.lowercased())
        #expect(note["title"] as? String == "Plan")
        #expect(note["body"] as? String == "step 1")
        #expect(note["tags"] as? [String] == ["todo"])
        #expect(note["notebook"] as? String == "work")
        #expect(note["isFavorite"] as? Bool == false)
        #expect(note["syncState"] as? String == "pending")
        #expect(note["deletedAt"] == nil)
        #expect((note["headRev"] as? String)?.count == 64)
        let created = try #require(note["createdAt"] as? String)
        #expect(created.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        #expect(note["modifiedAt"] as? String == created)
    }

    @Test func anEmptyTitleIsTakenFromTheFirstBodyLine() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("", body: "\n# Shopping list\n- milk\n")
        let note = try cli.note(id)
        #expect(note["title"] as? String == "Shopping list")
        #expect(note["body"] as? String == "- milk\n", "the title is not kept in the body too")
    }

    @Test func nothingToAddIsAUserError() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.cn("add", stdin: "")
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(try cli.ids().isEmpty)
    }

    @Test func invalidUTF8OnStdinIsRefusedAndNothingIsWritten() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.cn(["add", "Binary"], stdinBytes: Data([0x6F, 0x6B, 0x20, 0xC3, 0x28, 0xFF]))
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("not valid UTF-8"))
        #expect(result.stderr.contains("offset 3"))
        #expect(try cli.ids().isEmpty)
    }

    @Test func aNULByteIsRefusedRatherThanCutOff() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.cn(["add", "Nul"], stdinBytes: Data("before\u{0}after".utf8))
        #expect(result.status == 1)
        #expect(
            result.stderrLines == [
                "cloudnotes: stdin contains a NUL byte (at offset 6), which a note cannot hold; nothing was saved"
            ])
        #expect(try cli.ids().isEmpty)
    }

    @Test func aTenMegabyteBodyIsStoredByteForByte() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let line = "0123456789 abcdefghij ÄÖÜ 日本語 🎉\n"
        let body = String(repeating: line, count: 10_000_000 / line.utf8.count + 1)
        #expect(body.utf8.count > 10_000_000)
        let add = try cli.cn(["add", "Big"], stdinBytes: Data(body.utf8))
        #expect(add.status == 0, "\(add.stderr)")
        let show = try cli.cn("show", "Big")
        #expect(show.status == 0)
        #expect(show.stdoutData == Data(body.utf8))
    }

    @Test func anInvalidNotebookIsAUserError() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.cn("add", "T", "--body", "b", "--notebook", "My Notes")
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("notebook"))
        #expect(try cli.ids().isEmpty)
    }

    @Test func anArgumentThatIsNotUTF8IsRefusedNotRepaired() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.runProgram(
            "/bin/sh",
            [
                "-c", "exec \"$0\" add Title --body \"$(printf 'a\\377b')\" --data-dir \"$1\"", CLIRunner.binary.path,
                cli.dataDirectory.path,
            ])
        #expect(result.status == 1)
        #expect(
            result.stderrLines == [
                "cloudnotes: argument 4 (after --body) is not valid UTF-8 (first bad byte at offset 1); nothing was saved"
            ])
        #expect(try cli.ids().isEmpty)
    }

    @Test func concurrentWritersOnOneDataDirectoryAllLand() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.add("First", body: "creates the database")
        let statuses = Statuses(count: 12)
        DispatchQueue.concurrentPerform(iterations: 12) { i in
            statuses.set(i, (try? cli.cn("add", "Parallel \(i)", "--body", "body \(i)").status) ?? -1)
        }
        #expect(statuses.all == Array(repeating: 0, count: 12))
        #expect(try cli.ids().count == 13)
    }
}

/// Exit statuses collected from concurrent runs.
private final class Statuses: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int32]
    init(count: Int) { values = Array(repeating: -1, count: count) }
    func set(_ index: Int, _ value: Int32) { lock.withLock { values[index] = value } }
    var all: [Int32] { lock.withLock { values } }
}

extension AddTests {
    /// Without a title the body's first line is the title, and is not kept in the body too:
    /// from --body, --file and stdin alike.
    @Test func withoutATitleTheFirstLineIsTheTitleOnce() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let file = cli.home.appendingPathComponent("plan.md")
        try Data("# Plan\n\nstep 1\nstep 2\n".utf8).write(to: file)
        let results = [
            try cli.cn("add", "--body", "Groceries\nmilk\neggs"),
            try cli.cn("add", "--file", file.path),
            try cli.cn("add", stdin: "\nIdea\r\n"),
        ]
        var notes: [[String: Any]] = []
        for result in results {
            #expect(result.status == 0, "\(result.stderr)")
            notes.append(try cli.note(result.stdout.trimmingCharacters(in: .newlines)))
        }
        #expect(notes.map { $0["title"] as? String } == ["Groceries", "Plan", "Idea"])
        #expect(notes.map { $0["body"] as? String } == ["milk\neggs", "step 1\nstep 2\n", ""])
    }
}
