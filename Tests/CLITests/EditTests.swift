import Foundation
import Testing

/// `edit` with fake editors: shell scripts in the runner's home set as $EDITOR or $VISUAL.
@Suite struct EditTests {
    func revisions(_ cli: CLIRunner, _ id: String) throws -> Int {
        try #require(try cli.json("history", id, "--json") as? [Any]).count
    }

    /// Temporary files `edit` left in the runner's TMPDIR.
    func tempFiles(_ cli: CLIRunner) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cli.home.path).filter {
            $0.hasPrefix("cloudnotes-") && $0.hasSuffix(".md")
        }
    }

    @Test func anEditorThatRewritesTheFileSavesANewRevision() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Draft", body: "old body\n")
        let seen = cli.home.appendingPathComponent("seen")
        let editor = try cli.script(
            "rewrite.sh",
            """
            stat -c %a "$1" > '\(seen.path)'
            cat "$1" >> '\(seen.path)'
            printf 'Final title\\n\\nnew body\\nsecond line\\n' > "$1"
            """)
        let result = try cli.cn("edit", id, environment: ["EDITOR": editor])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try String(contentsOf: seen, encoding: .utf8) == "600\nDraft\n\nold body\n",
            "a private file with title, blank line, body")
        let note = try cli.note(id)
        #expect(note["title"] as? String == "Final title")
        #expect(note["body"] as? String == "new body\nsecond line\n")
        #expect(try revisions(cli, id) == 2)
        #expect(try tempFiles(cli).isEmpty)
    }

    @Test func anEditorThatChangesNothingSavesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Same", body: "unchanged\n")
        let editor = try cli.script("touch.sh", "touch \"$1\"")
        let before = try cli.note(id)
        let piped = try cli.cn("edit", id, environment: ["EDITOR": editor])
        #expect(piped.status == 0)
        let terminal = try cli.inTerminal("edit", id, environment: ["EDITOR": editor])
        #expect(terminal.status == 0)
        #expect(terminal.stdout.contains("no changes"))
        #expect(try revisions(cli, id) == 1)
        #expect(try cli.note(id)["modifiedAt"] as? String == before["modifiedAt"] as? String)
        #expect(try tempFiles(cli).isEmpty)
    }

    @Test(arguments: ["printf 'T\\n\\n\\377' > \"$1\"", "printf 'T\\n\\na\\000b' > \"$1\""])
    func anEditedFileThatIsNotTextIsKeptAndNothingSaved(write: String) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("T", body: "text")
        let result = try cli.cn("edit", id, environment: ["EDITOR": try cli.script("binary.sh", write)])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("nothing was saved and the file is kept in"))
        #expect(try cli.note(id)["body"] as? String == "text")
        #expect(try tempFiles(cli).count == 1)
    }

    @Test(arguments: ["exit 1", "kill -SEGV $$"])
    func aFailingEditorKeepsThePrivateTempFileAndNamesIt(failure: String) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Precious", body: "keep me\n")
        let editor = try cli.script(
            "crash.sh", "printf 'Precious\\n\\nkeep me\\nand my new words\\n' > \"$1\"\n\(failure)")
        let result = try cli.cn("edit", id, environment: ["EDITOR": editor])
        #expect(result.status == 1)
        // The editor's own stderr (here the shell's "Segmentation fault") comes first; ours is one line.
        #expect(result.stderrLines.filter { $0.hasPrefix("cloudnotes:") }.count == 1, "\(result.stderr)")
        #expect(result.stderrLines.last?.contains("your text is kept in") == true)
        let path = try #require(result.stderr.firstMatch(of: /\/\S*cloudnotes-[0-9a-f]{8}-\S+\.md/)).output
        let attributes = try FileManager.default.attributesOfItem(atPath: String(path))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try String(contentsOfFile: String(path), encoding: .utf8) == "Precious\n\nkeep me\nand my new words\n")
        #expect(try cli.note(id)["body"] as? String == "keep me\n", "nothing is saved from a failed editor")
        #expect(try revisions(cli, id) == 1)
    }

    @Test func visualTakesPrecedenceOverEditor() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Who", body: "nobody")
        let visual = try cli.script("visual.sh", "printf 'Who\\n\\nvisual' > \"$1\"")
        let editor = try cli.script("editor.sh", "printf 'Who\\n\\neditor' > \"$1\"")
        let result = try cli.cn("edit", id, environment: ["VISUAL": visual, "EDITOR": editor])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try cli.note(id)["body"] as? String == "visual")
        let onlyEditor = try cli.cn("edit", id, environment: ["EDITOR": editor])
        #expect(onlyEditor.status == 0)
        #expect(try cli.note(id)["body"] as? String == "editor")
        let configured = try cli.script("configured.sh", "printf 'Who\\n\\nconfig' > \"$1\"")
        let config = cli.home.appendingPathComponent("config.json")
        try Data("{\"editor\": \"\(configured)\"}".utf8).write(to: config)
        let fromConfig = try cli.cn(
            "edit", id, "--config", config.path, environment: ["VISUAL": visual, "EDITOR": editor])
        #expect(fromConfig.status == 0)
        #expect(try cli.note(id)["body"] as? String == "config", "the config's editor comes first")
    }

    @Test func aMissingEditorIsNamed() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Nobody", body: "x")
        let result = try cli.cn("edit", id, environment: ["EDITOR": "/nonexistent/editor"])
        #expect(result.status == 1)
        #expect(
            result.stderrLines.last?.hasPrefix("cloudnotes: the editor \"/nonexistent/editor\" was not found") == true,
            "\(result.stderr)")
        #expect(try cli.note(id)["body"] as? String == "x")
    }

    @Test func theEditorRunsInTheTerminalsForegroundProcessGroup() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Fg", body: "x")
        // A full-screen editor outside the foreground group is stopped by SIGTTOU when it sets up the terminal.
        let editor = try cli.script(
            "fg.sh",
            """
            set -- "$1" $(cut -d' ' -f5,8 /proc/$$/stat)
            if [ "$2" = "$3" ]; then printf 'Fg\\n\\nforeground' > "$1"; else printf 'Fg\\n\\nbackground' > "$1"; fi
            """)
        let result = try cli.inTerminal("edit", id, environment: ["EDITOR": editor])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(try cli.note(id)["body"] as? String == "foreground")
    }

    @Test func ctrlCWhileTheEditorRunsDoesNotLoseTheEdit() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Interrupted", body: "before")
        // The terminal sends SIGINT to the whole foreground group: cloudnotes gets it too.
        let editor = try cli.script(
            "ctrlc.sh",
            """
            p=$PPID
            [ "$(cat /proc/$p/comm)" = cloudnotes ] || p=$(cut -d' ' -f4 /proc/$p/stat)
            kill -INT "$p"
            printf 'Interrupted\\n\\nafter' > "$1"
            """)
        let result = try cli.cn("edit", id, environment: ["EDITOR": editor])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try cli.note(id)["body"] as? String == "after")
    }

    @Test func optionsSetTheTitleBodyOrNotebookWithoutAnEditor() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Opt", body: "one")
        #expect(try cli.cn("edit", id, "--title", "Renamed").status == 0)
        #expect(try cli.cn("edit", id, "--file", "-", stdin: "from stdin\n").status == 0)
        #expect(try cli.cn("edit", id, "--notebook", "work").status == 0)
        let note = try cli.note(id)
        #expect(note["title"] as? String == "Renamed")
        #expect(note["body"] as? String == "from stdin\n")
        #expect(note["notebook"] as? String == "work")
        #expect(try revisions(cli, id) == 4)
        let same = try cli.cn("edit", id, "--body", "from stdin\n")
        #expect(same.status == 0)
        #expect(try revisions(cli, id) == 4, "setting the same body is no change")
        let bad = try cli.cn(["edit", id, "--file", "-"], stdinBytes: Data([0xFF, 0xFE]))
        #expect(bad.status == 1)
        #expect(try cli.note(id)["body"] as? String == "from stdin\n")
    }

    @Test func aTitleWithLineBreaksSurvivesAnEditOfTheBody() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = "7e000000-0000-4000-8000-000000000001"
        try cli.seed([CLIRunner.fixture(id: id, title: "two\nlines\r", body: "old body")])
        let seen = cli.home.appendingPathComponent("seen")
        let editor = try cli.script("body.sh", "cp \"$1\" '\(seen.path)'; sed -i 's/old body/new body/' \"$1\"")
        let result = try cli.cn("edit", id, environment: ["EDITOR": editor])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try String(contentsOf: seen, encoding: .utf8) == "two lines \n\nold body\n",
            "the title is shown on one line; the file ends with a line break")
        let note = try cli.note(id)
        #expect(note["title"] as? String == "two\nlines\r")
        #expect(note["body"] as? String == "new body")
    }

    @Test func anEditorCommandMayCarryArguments() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Args", body: "x")
        let editor = try cli.script("args.sh", "printf 'Args\\n\\n%s' \"$1\" > \"$2\"")
        let result = try cli.cn("edit", id, environment: ["EDITOR": editor + " --wait"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try cli.note(id)["body"] as? String == "--wait")
    }

    @Test
    func anEditThatOnlyChangesNormalizationIsSaved() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Cafe", body: "caf\u{E9}")
        let editor = try cli.script("nfd.sh", "printf 'Cafe\\n\\ncafe\\314\\201' > \"$1\"")
        #expect(try cli.cn("edit", id, environment: ["EDITOR": editor]).status == 0)
        #expect(try cli.cn("show", id).stdoutData == Data("cafe\u{301}".utf8))
    }

    @Test func aBodyWithoutAFinalLineBreakGetsOneInTheFileAndLosesItOnTheWayBack() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("List", body: "one\ntwo")
        let seen = cli.home.appendingPathComponent("seen")
        // Like vi: appends a line after the last one, keeping the file's final line break.
        let editor = try cli.script("append.sh", "cp \"$1\" '\(seen.path)'; printf 'three\\n' >> \"$1\"")
        #expect(try cli.cn("edit", id, environment: ["EDITOR": editor]).status == 0)
        #expect(try String(contentsOf: seen, encoding: .utf8) == "List\n\none\ntwo\n")
        #expect(try cli.cn("show", id).stdoutData == Data("one\ntwo\nthree".utf8))
        // Untouched, the added line break is no change at all.
        let touch = try cli.script("touch.sh", "touch \"$1\"")
        #expect(try cli.cn("edit", id, environment: ["EDITOR": touch]).status == 0)
        #expect(try revisions(cli, id) == 2)
        // A body that ends with a line break keeps it, and gets no second one.
        let ended = try cli.add("Ended", body: "line\n")
        let seenEnded = cli.home.appendingPathComponent("seen-ended")
        let copy = try cli.script("copy.sh", "cp \"$1\" '\(seenEnded.path)'; printf 'more\\n' >> \"$1\"")
        #expect(try cli.cn("edit", ended, environment: ["EDITOR": copy]).status == 0)
        #expect(try String(contentsOf: seenEnded, encoding: .utf8) == "Ended\n\nline\n")
        #expect(try cli.cn("show", ended).stdoutData == Data("line\nmore\n".utf8))
    }
}
