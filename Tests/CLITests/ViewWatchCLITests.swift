import Foundation
import NotesTestSupport
import Synchronization
import Testing

/// `view watch` as a process (issue 25, "Subscriptions"): lines for notes added to, edited in,
/// moved out of and deleted from a view, made here and arriving by sync; `--exec` gets the
/// change in its environment, never in its command line.
@Suite("view watch: a saved search that reports its changes")
struct ViewWatchCLITests {
    /// A running `cloudnotes view watch` whose stdout lines the test reads as they come.
    final class Watch: Sendable {
        struct Output {
            var buffer = ""
            var lines: [String] = []
            var errors = ""
        }

        let process = Process()
        private let output = Mutex(Output())

        init(_ arguments: [String], home: URL) throws {
            process.executableURL = CLIRunner.binary
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path
            environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("xdg-config").path
            environment["XDG_DATA_HOME"] = home.appendingPathComponent("xdg-data").path
            process.environment = environment
            let out = Pipe()
            process.standardOutput = out
            let err = Pipe()
            process.standardError = err
            err.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.output.withLock { $0.errors += String(decoding: data, as: UTF8.self) }
            }
            out.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.output.withLock { output in
                    output.buffer += String(decoding: data, as: UTF8.self)
                    while let newline = output.buffer.firstIndex(of: "\n") {
                        output.lines.append(String(output.buffer[..<newline]))
                        output.buffer = String(output.buffer[output.buffer.index(after: newline)...])
                    }
                }
            }
            try process.run()
        }

        /// The lines printed so far.
        var printed: [String] { output.withLock(\.lines) }

        /// Waits (at most 30 s: a loaded CI machine) until `count` lines have been printed.
        func waitForLines(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
            let deadline = Date().addingTimeInterval(30)
            while printed.count < count, Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(printed.count >= count, "printed: \(printed)", sourceLocation: sourceLocation)
            return printed
        }

        /// Waits until the watch says it is watching (its first look is taken).
        func waitUntilWatching(sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let deadline = Date().addingTimeInterval(30)
            func said() -> String { output.withLock(\.errors) }
            while !said().contains("watching view"), Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(
                said().contains("1 note(s) match") || said().contains("0 note(s) match"), "\(said())",
                sourceLocation: sourceLocation)
        }

        func stop() {
            guard process.isRunning else { return }
            process.interrupt()
            process.waitUntilExit()
        }
    }

    static func event(_ line: String) -> (event: String, title: String) {
        let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: String] ?? [:]
        return (object["event"] ?? "?", object["title"] ?? "?")
    }

    @Test("added, edited, moved out and deleted, here and by sync: one JSON line each, and --exec runs")
    func reportsEachChange() async throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (_, a, b) = try runner.devicesSharingACloudFolder()
        try SyncedSettingsCLITests.ok(runner, b, "add", "Not in the view", "--body", "x")
        try SyncedSettingsCLITests.ok(runner, b, "view", "save", "work", "tag:work")
        let marker = runner.home.appendingPathComponent("exec-log")
        let watch = try Watch(
            [
                "view", "watch", "work", "--json", "--interval", "0.1", "--data-dir", b.path, "--exec",
                "printf '%s %s\\n' \"$CLOUDNOTES_EVENT\" \"$CLOUDNOTES_NOTE_TITLE\" >> '\(marker.path)'",
            ], home: runner.home)
        defer { watch.stop() }
        try await watch.waitUntilWatching()
        try SyncedSettingsCLITests.ok(runner, b, "add", "Plan $(touch pwned)", "--tag", "work", "--body", "first")
        #expect(try await watch.waitForLines(1).map(Self.event).last?.event == "added")
        try SyncedSettingsCLITests.ok(runner, b, "edit", "Plan $(touch pwned)", "--body", "second")
        #expect(try await watch.waitForLines(2).map(Self.event).last?.event == "changed")
        try SyncedSettingsCLITests.ok(runner, b, "tag", "Plan $(touch pwned)", "--remove", "work")
        #expect(try await watch.waitForLines(3).map(Self.event).last?.event == "removed")
        // From another device, through the cloud folder and a sync run beside the watch.
        try SyncedSettingsCLITests.ok(runner, a, "add", "Roadmap", "--tag", "work")
        try SyncedSettingsCLITests.ok(runner, a, "sync")
        try SyncedSettingsCLITests.ok(runner, b, "sync")
        let arrived = try await watch.waitForLines(4).map(Self.event)
        #expect(arrived.last?.event == "added" && arrived.last?.title == "Roadmap", "\(arrived)")
        try SyncedSettingsCLITests.ok(runner, a, "rm", "Roadmap")
        try SyncedSettingsCLITests.ok(runner, a, "sync")
        try SyncedSettingsCLITests.ok(runner, b, "sync")
        let all = try await watch.waitForLines(5).map(Self.event)
        #expect(all.last?.event == "removed" && all.last?.title == "Roadmap", "\(all)")
        #expect(all.count == 5, "\(all)")
        #expect(!all.contains { $0.title == "Not in the view" })
        watch.stop()
        let executed = (try? String(contentsOf: marker, encoding: .utf8)) ?? ""
        #expect(executed.hasPrefix("added Plan $(touch pwned)\nchanged Plan $(touch pwned)\n"), "\(executed)")
        #expect(!FileManager.default.fileExists(atPath: runner.home.appendingPathComponent("pwned").path))
        #expect(!FileManager.default.fileExists(atPath: "pwned"))
    }
}
