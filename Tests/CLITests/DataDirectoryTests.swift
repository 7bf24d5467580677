import Foundation
import Testing

/// `--data-dir`: independent devices on one machine, and data directories in bad shape.
@Suite struct DataDirectoryTests {
    static let canMountReadOnly: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-m", "/bin/sh", "-c", "mount --bind -o ro /tmp /tmp"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    @Test func twoDataDirectoriesAreIndependentDevices() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let laptop = cli.device("laptop")
        let desktop = cli.device("desktop")
        let a = try cli.cn(at: laptop, "add", "Shared title", "--body", "laptop text")
        let b = try cli.cn(at: desktop, "add", "Shared title", "--body", "desktop text")
        #expect(a.status == 0 && b.status == 0)
        #expect(try cli.cn(at: laptop, "edit", "Shared title", "--body", "laptop edit").status == 0)
        #expect(try cli.cn(at: laptop, "show", "Shared title").stdout == "laptop edit")
        #expect(try cli.cn(at: desktop, "show", "Shared title").stdout == "desktop text")
        #expect(try cli.cn(at: desktop, "show", a.stdout.trimmingCharacters(in: .newlines)).status == 1)
        let laptopDevice = try #require(
            try JSONSerialization.jsonObject(with: cli.cn(at: laptop, "history", "Shared title", "--json").stdoutData)
                as? [[String: Any]])
        let desktopDevice = try #require(
            try JSONSerialization.jsonObject(with: cli.cn(at: desktop, "history", "Shared title", "--json").stdoutData)
                as? [[String: Any]])
        #expect(laptopDevice.count == 2 && desktopDevice.count == 1)
        #expect(
            laptopDevice.first?["device"] as? String != desktopDevice.first?["device"] as? String,
            "each data directory is its own device")
    }

    @Test("global options work before the command's name, as README says every command takes them")
    func globalOptionsBeforeTheCommand() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let data = cli.device("laptop").path
        let add = try cli.run(["--data-dir", data, "add", "Before the command", "--body", "b"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try cli.run(["--data-dir", data, "new", "By its alias"]).status == 0)
        let list = try cli.run(["--data-dir=\(data)", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Before the command") && list.stdout.contains("By its alias"), "\(list.stdout)")
        let config = cli.home.appendingPathComponent("config.json")
        try Data("{\"cloudFolder\": null}".utf8).write(to: config)
        let sync = try cli.run(["--config", config.path, "--data-dir", data, "sync"])
        #expect(
            !sync.stderr.contains("Unexpected argument") && !sync.stderr.contains("Unknown option"), "\(sync.stderr)")
        let shown = try cli.run(["--data-dir", data, "--config", config.path, "config", "--json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(try Self.configValue("dataDirectory", shown) as? String == data)
        #expect(try Self.configValue("cloudFolder", shown) is NSNull)
        // Nothing went to the default data directory.
        #expect(!FileManager.default.fileExists(atPath: cli.dataDirectory.path))
    }

    @Test("an empty HOME puts data under the account's home directory, never under /.local/share")
    func anEmptyHomeIsNotTheRootDirectory() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let account = try #require(getpwuid(geteuid())?.pointee.pw_dir.map { String(cString: $0) })
        let shown = try cli.run(
            ["config", "--json"], environment: ["HOME": "", "XDG_DATA_HOME": "", "XDG_CONFIG_HOME": ""])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(try Self.configValue("dataDirectory", shown) as? String == account + "/.local/share/cloudnotes")
    }

    /// A key's value in `config --json`'s output.
    static func configValue(_ key: String, _ result: CLIRunner.Result) throws -> Any? {
        let report = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        let values = report?["values"] as? [String: Any]
        return (values?[key] as? [String: Any])?["value"]
    }

    @Test func anEmptyDataDirIsRefusedRatherThanTakenAsTheCurrentDirectory() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["list", "--data-dir", ""])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("--data-dir needs a path"))
    }

    @Test func aDataDirectoryInsideTheCloudFolderIsRefused() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let cloud = cli.device("Sync")
        let config = cli.home.appendingPathComponent("config.json")
        try Data("{\"cloudFolder\": \"\(cloud.path)\"}".utf8).write(to: config)
        let inside = cloud.appendingPathComponent("notes-db")
        let result = try cli.run(["add", "T", "--body", "b", "--config", config.path, "--data-dir", inside.path])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("inside the cloud folder"))
        #expect(!FileManager.default.fileExists(atPath: inside.path))
        let sibling = cli.device("Sync-db")
        #expect(
            try cli.run(["add", "T", "--body", "b", "--config", config.path, "--data-dir", sibling.path]).status == 0,
            "a name prefix is not a parent folder")
    }

    @Test func theDataDirectoryAndDatabaseArePrivate() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.add("Private", body: "p")
        let fm = FileManager.default
        #expect(
            (try fm.attributesOfItem(atPath: cli.dataDirectory.path)[.posixPermissions] as? NSNumber)?.intValue == 0o700
        )
        for name in try fm.contentsOfDirectory(atPath: cli.dataDirectory.path) {
            let mode =
                try fm.attributesOfItem(atPath: cli.dataDirectory.appendingPathComponent(name).path)[.posixPermissions]
                as? NSNumber
            #expect(mode?.intValue == 0o600, "\(name)")
        }
    }

    @Test(arguments: ["garbage", "truncated"])
    func aCorruptDatabaseIsAClearErrorAndLeftUntouched(damage: String) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let database = cli.dataDirectory.appendingPathComponent("notes.sqlite")
        if damage == "garbage" {
            try FileManager.default.createDirectory(at: cli.dataDirectory, withIntermediateDirectories: true)
            try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }).write(to: database)
        } else {
            try cli.seed(
                (0..<50).map { i in
                    CLIRunner.fixture(
                        id: String(format: "%08x-0000-4000-8000-000000000000", i), title: "Note \(i)",
                        body: String(repeating: "text \(i) ", count: 200))
                })
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
            let whole = try Data(contentsOf: database)
            try whole.prefix(whole.count / 2).write(to: database)
        }
        let before = try Data(contentsOf: database)
        for arguments in [["list"], ["add", "New", "--body", "x"], ["show", "Note 1"]] {
            let result = try cli.run(arguments + ["--data-dir", cli.dataDirectory.path])
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines.count == 1)
            #expect(result.stderr.contains(database.path))
            #expect(result.stderr.contains("damaged"))
        }
        #expect(try Data(contentsOf: database) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.dataDirectory.path) == ["notes.sqlite"])
    }

    /// Runs the binary with the data directory bind-mounted read-only in a private mount namespace.
    func readOnly(_ cli: CLIRunner, _ arguments: String...) throws -> CLIRunner.Result {
        try cli.runProgram(
            "/usr/bin/unshare",
            [
                "-m", "/bin/sh", "-c", "mount --bind -o ro \"$1\" \"$1\" && shift && exec \"$@\"", "sh",
                cli.dataDirectory.path, CLIRunner.binary.path,
            ] + arguments + ["--data-dir", cli.dataDirectory.path])
    }

    @Test(.enabled(if: canMountReadOnly, "needs root and unshare(1) to bind-mount the data directory read-only"))
    func aReadOnlyDataDirectoryRefusesWritesWithAClearError() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Readable", body: "still here")
        let add = try readOnly(cli, "add", "New", "--body", "x")
        #expect(add.status == 1)
        #expect(add.stderrLines.count == 1, "\(add.stderr)")
        #expect(add.stderr.contains("is read-only"), "\(add.stderr)")
        let edit = try readOnly(cli, "edit", id, "--body", "changed")
        #expect(edit.status == 1)
        #expect(edit.stderrLines.count == 1, "\(edit.stderr)")
        #expect(try cli.ids() == [id])
        #expect(try cli.note(id)["body"] as? String == "still here")
    }

    @Test(.enabled(if: canMountReadOnly, "needs root and unshare(1) to bind-mount the data directory read-only"))
    func aReadOnlyDataDirectoryCanStillBeReadSearchedAndExported() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Readable", body: "still here")
        let files = try FileManager.default.contentsOfDirectory(atPath: cli.dataDirectory.path).sorted()
        let show = try readOnly(cli, "show", id)
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout == "still here")
        let list = try readOnly(cli, "list")
        #expect(list.status == 0 && list.stdout.contains("Readable"), "\(list.stderr)")
        let search = try readOnly(cli, "search", "still")
        #expect(search.status == 0 && search.stdout.contains("Readable"), "\(search.stderr)")
        let tag = try readOnly(cli, "tag", id, "x")
        #expect(tag.status == 1 && tag.stderr.contains("read-only"), "\(tag.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.dataDirectory.path).sorted() == files)
    }

    @Test
    func aDirectoryMadeReadOnlyWithChmodStaysReadOnly() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.add("Existing", body: "e")
        let nobody = "65534"
        _ = try cli.runProgram("/bin/chown", ["-R", "\(nobody):\(nobody)", cli.home.path])
        _ = try cli.runProgram("/bin/chmod", ["0500", cli.dataDirectory.path])
        let add = try cli.runProgram(
            "/usr/bin/setpriv",
            [
                "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", CLIRunner.binary.path,
                "add", "New", "--body", "x", "--data-dir", cli.dataDirectory.path,
            ])
        #expect(add.status == 1)
        let mode =
            try FileManager.default.attributesOfItem(atPath: cli.dataDirectory.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o500)
    }

    @Test
    func aForeignSQLiteDatabaseIsRefusedAndLeftUntouched() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try FileManager.default.createDirectory(at: cli.dataDirectory, withIntermediateDirectories: true)
        let database = cli.dataDirectory.appendingPathComponent("notes.sqlite")
        let python = try cli.runProgram(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table other(x)'); c.commit()",
                database.path,
            ])
        try #require(python.status == 0, "\(python.stderr)")
        let before = try Data(contentsOf: database)
        let result = try cli.cn("list")
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(try Data(contentsOf: database) == before)
    }

    @Test func anUnreadableRevisionIsAnInternalErrorInOneLine() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Damaged", body: "b")
        try cli.damage("UPDATE revision SET fields = '{oops'")
        let result = try cli.cn("history", id)
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("cloudnotes: internal error: "))
    }

    @Test
    func aDamagedNoteIdIsAnErrorNotACrash() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.add("Damaged", body: "b")
        try cli.damage("UPDATE note SET id = 'not-a-uuid'")
        let result = try cli.cn("list")
        #expect(result.status == 1 || result.status == 2)
        #expect(result.stderrLines.count == 1)
    }
}
