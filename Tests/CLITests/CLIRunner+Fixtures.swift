import Foundation
import Glibc
import Testing

/// Fixtures and views on output that several CLI test files share.
extension CLIRunner {
    /// A second data directory under this runner's home: another device on the same machine.
    func device(_ name: String) -> URL { home.appendingPathComponent(name) }

    /// Data directories `a` and `b` under this runner's home, `a` bound to a new cloud folder
    /// there by `sync init` and `b` too when `bindingB`: two devices sharing one folder.
    /// `encrypted`: the folder is created with `--encrypt` and joined with its passphrase
    /// (`CLIRunner.passphrase`); the devices remember the key, so later commands need none.
    /// `cloud`: where the folder is (default: `cloud` under the home; an `s3://` URL, see
    /// `devicesSharingACloudFolder(over:)`).
    func devicesSharingACloudFolder(
        cloud: String? = nil, bindingB: Bool = true, encrypted: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (cloud: String, a: URL, b: URL) {
        let cloud = cloud ?? home.appendingPathComponent("cloud").path
        let (a, b) = (device("a"), device("b"))
        let environment = encrypted ? Self.passphraseEnvironment(Self.passphrase) : [:]
        let first = try run(
            ["sync", "init", cloud, "--data-dir", a.path] + (encrypted ? ["--encrypt"] : []), environment: environment)
        #expect(first.status == 0, "\(first.stderr)", sourceLocation: sourceLocation)
        if bindingB {
            let second = try run(["sync", "init", cloud, "--data-dir", b.path], environment: environment)
            #expect(second.status == 0, "\(second.stderr)", sourceLocation: sourceLocation)
        }
        return (cloud, a, b)
    }

    static let passphrase = "correct horse battery staple"

    /// Writes this runner's config with the largest note that syncs set to `bytes`.
    func limitNotes(to bytes: Int) throws {
        try mergeConfig(["maxNoteBytes": bytes])
    }

    /// The passphrase for a command, with scrypt made cheap (N = 2^10) so tests stay fast.
    static func passphraseEnvironment(_ passphrase: String) -> [String: String] {
        ["CLOUDNOTES_PASSPHRASE": passphrase, "CLOUDNOTES_SCRYPT_LOG_N": "10"]
    }

    /// Runs with `--data-dir` set to `directory`.
    @discardableResult
    func cn(at directory: URL, _ arguments: String..., stdin: String? = nil) throws -> Result {
        try run(arguments + ["--data-dir", directory.path], stdin: stdin.map { Data($0.utf8) })
    }

    /// Runs with raw bytes on stdin.
    @discardableResult
    func cn(_ arguments: [String], stdinBytes: Data, environment: [String: String] = [:]) throws -> Result {
        try run(arguments + ["--data-dir", dataDirectory.path], stdin: stdinBytes, environment: environment)
    }

    /// Adds a note and returns its id; fails the test if `add` fails.
    @discardableResult
    func add(_ title: String, body: String = "", _ extra: String..., sourceLocation: SourceLocation = #_sourceLocation)
        throws -> String
    {
        let result = try run(["add", title, "--body", body] + extra + ["--data-dir", dataDirectory.path])
        #expect(result.status == 0, "add failed: \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stdout parsed as JSON; fails the test if the command fails or prints something else.
    func json(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> Any {
        try json(arguments, sourceLocation: sourceLocation)
    }

    func json(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Any {
        let result = try run(arguments + ["--data-dir", dataDirectory.path])
        #expect(result.status == 0, "\(arguments) failed: \(result.stderr)", sourceLocation: sourceLocation)
        return try JSONSerialization.jsonObject(with: result.stdoutData, options: [.fragmentsAllowed])
    }

    /// One note as `show --json` prints it.
    func note(_ reference: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(try json("show", reference, "--json", sourceLocation: sourceLocation) as? [String: Any])
    }

    /// Imports notes given as export-format JSON objects (fixed ids and dates) into `directory`.
    func seed(_ notes: [[String: Any]], into directory: URL? = nil) throws {
        let file = home.appendingPathComponent("seed-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: notes).write(to: file)
        let result = try run(["import", file.path, "--data-dir", (directory ?? dataDirectory).path])
        #expect(result.status == 0, "seeding failed: \(result.stderr)")
    }

    /// Runs SQL on the database of `directory` (default: the runner's) with python3's sqlite3
    /// (a damaged row, as a bug or a bad disk would leave it, or a state a kill leaves).
    func damage(_ sql: String, in directory: URL? = nil) throws {
        let python = try runProgram(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()",
                (directory ?? dataDirectory).appendingPathComponent("notes.sqlite").path, sql,
            ])
        try #require(python.status == 0, "\(python.stderr)")
    }

    /// A shell script in this runner's home, made executable; returns its path. Written through
    /// a close-on-exec descriptor: a process another test starts meanwhile must not inherit it
    /// open for writing, or running the script fails with "Text file busy" (ETXTBSY).
    func script(_ name: String, _ text: String) throws -> String {
        let path = home.appendingPathComponent(name).path
        let bytes = Array(("#!/bin/sh\n" + text + "\n").utf8)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o700)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard close(fd) == 0, written == bytes.count else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
        return path
    }

    /// Runs with stdout and stderr on a pseudo-terminal (util-linux `script`), merged as a user sees them.
    func inTerminal(_ arguments: String..., environment: [String: String] = [:]) throws -> Result {
        try inTerminal(arguments, environment: environment)
    }

    func inTerminal(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let words = [Self.binary.path] + arguments + ["--data-dir", dataDirectory.path]
        let command = "exec " + words.map(Self.shellQuoted).joined(separator: " ")
        return try runProgram("/usr/bin/script", ["-qfec", command, "/dev/null"], environment: environment)
    }

    static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The ids `list --json` prints, in its order (favorites first, then by modification).
    func ids(trash: Bool = false) throws -> [String] {
        let arguments = ["list", "--limit", "100000", "--json"] + (trash ? ["--trash"] : [])
        let result = try run(arguments + ["--data-dir", dataDirectory.path])
        #expect(result.status == 0, "list failed: \(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])
        return rows.compactMap { $0["id"] as? String }
    }

    static func fixture(
        id: String, title: String, body: String = "", tags: [String] = [], isFavorite: Bool = false,
        notebook: String = "notes", createdAt: String = "2025-01-01T10:00:00.000Z", modifiedAt: String? = nil,
        deletedAt: String? = nil
    ) -> [String: Any] {
        var note: [String: Any] = [
            "id": id, "title": title, "body": body, "tags": tags, "isFavorite": isFavorite, "notebook": notebook,
            "createdAt": createdAt, "modifiedAt": modifiedAt ?? createdAt,
        ]
        if let deletedAt { note["deletedAt"] = deletedAt }
        return note
    }
}

extension CLIRunner.Result {
    /// Stderr lines, without the empty one after the last newline.
    var stderrLines: [Substring] { stderr.split(separator: "\n") }
}
