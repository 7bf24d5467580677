import Foundation
import Testing

/// Commands that only read open the store read-only: they answer while another process holds
/// the database's write lock (an import, a sync, the app saving), and leave its file as it was.
@Suite struct ReadCommandsTests {
    /// Every command that only reads, with arguments that find something in `seeded`.
    static func readCommands(_ export: URL) -> [[String]] {
        [
            ["list"], ["list", "--json"], ["search", "harbour"], ["show", "Harbour plan"],
            ["history", "Harbour plan"], ["links", "Harbour plan"], ["backlinks", "Tide table"], ["tags"],
            ["notebooks"], ["todo"], ["export", export.path],
        ]
    }

    /// Two notes, one linking to the other, with a tag and an open task.
    static func seeded() throws -> CLIRunner {
        let cli = try CLIRunner()
        try cli.add("Tide table", body: "low water at six")
        try cli.add("Harbour plan", body: "see [[Tide table]]\n- [ ] check the harbour moorings", "--tag", "boats")
        return cli
    }

    @Test("read commands answer at once while another process holds the write lock")
    func readsWhileAnotherProcessWrites() throws {
        let cli = try Self.seeded()
        defer { cli.cleanUp() }
        // python3's sqlite3 takes the write lock (BEGIN IMMEDIATE) and keeps it until its stdin closes.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); sys.stdin.read()",
            cli.dataDirectory.appendingPathComponent("notes.sqlite").path,
        ]
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        try #require(line.hasPrefix("locked"), "the lock holder did not start: \(line)")

        for arguments in Self.readCommands(cli.home.appendingPathComponent("export-\(UUID().uuidString)")) {
            // A command that took the write lock would wait its busy timeout (10 s), then fail.
            let result = try cli.run(arguments + ["--data-dir", cli.dataDirectory.path])
            #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.stderr)")
        }
        #expect(try cli.cn("search", "moorings").stdout.contains("Harbour plan"))
        #expect(try cli.cn("show", "Tide table").stdout.contains("low water at six"))
        // Once the lock is released, writes go on as before.
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        #expect(try cli.cn("add", "After the lock").status == 0)
    }

    @Test("read commands leave the database file byte for byte as it was")
    func readsWriteNothing() throws {
        let cli = try Self.seeded()
        defer { cli.cleanUp() }
        let database = cli.dataDirectory.appendingPathComponent("notes.sqlite")
        let before = try Data(contentsOf: database)
        for arguments in Self.readCommands(cli.home.appendingPathComponent("export-\(UUID().uuidString)")) {
            let result = try cli.run(arguments + ["--data-dir", cli.dataDirectory.path])
            #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.stderr)")
            let wal = (try? FileManager.default.attributesOfItem(atPath: database.path + "-wal")[.size] as? NSNumber)
            #expect((wal?.intValue ?? 0) == 0, "\(arguments.joined(separator: " ")) wrote to the WAL")
        }
        #expect(try Data(contentsOf: database) == before, "a read command changed notes.sqlite")
        // A write after them works as before.
        try cli.add("Written after the reads")
        #expect(try cli.cn("list").stdout.contains("Written after the reads"))
    }

    @Test("a read command on a data directory with no store yet creates it, as before")
    func aReadCommandOnANewDataDirectory() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.cn("list")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: cli.dataDirectory.appendingPathComponent("notes.sqlite").path))
        try cli.add("First")
        #expect(try cli.cn("list").stdout.contains("First"))
    }
}
