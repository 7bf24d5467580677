import Foundation
import NotesCore
import Testing

@testable import NotesStore

/// Two real processes on one database (ARCHITECTURE §7: a TUI plus a CLI writer). The child is this
/// test binary, run again with only `childWriter` enabled.
@Suite struct NoteStoreTwoProcessTests {
    static let directoryVariable = "CLOUDNOTES_TEST_CHILD_STORE"
    static let prefixVariable = "CLOUDNOTES_TEST_CHILD_PREFIX"
    static let notesPerWriter = 40

    /// Not a test of its own: the entry point of a child process, skipped in a normal run.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[directoryVariable] != nil))
    func childWriter() throws {
        let env = ProcessInfo.processInfo.environment
        let store = try NoteStore(directory: URL(fileURLWithPath: env[Self.directoryVariable]!))
        let prefix = env[Self.prefixVariable] ?? "child"
        for i in 0..<Self.notesPerWriter {
            let note = try store.create(title: "\(prefix)-\(i)", body: "from \(prefix)")
            if i % 4 == 0 { _ = try store.update(note.id) { $0.body += " edited" } }
        }
    }

    @Test func aSecondProcessWritingAtTheSameTimeLosesNothing() throws {
        let t = try TestStore()
        try t.store.create(title: "seed", body: "")
        let logs = (0..<2).map { _ in Pipe() }
        let children = try (0..<2).map { n -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = ["--testing-library", "swift-testing", "--filter", "childWriter"]
            var env = ProcessInfo.processInfo.environment
            env[Self.directoryVariable] = t.directory.path
            env[Self.prefixVariable] = "p\(n)"
            process.environment = env
            process.standardOutput = logs[n]
            process.standardError = logs[n]
            try process.run()
            return process
        }
        for i in 0..<Self.notesPerWriter { try t.store.create(title: "parent-\(i)", body: "from parent") }
        for (child, log) in zip(children, logs) {
            let output = log.fileHandleForReading.readDataToEndOfFile()
            child.waitUntilExit()
            #expect(child.terminationStatus == 0, "\(String(decoding: output, as: UTF8.self))")
        }
        let titles = Set(try t.store.list(ListRequest(section: .all, limit: 1000)).map(\.title))
        #expect(titles.count == 3 * Self.notesPerWriter + 1)
        for prefix in ["parent", "p0", "p1"] {
            for i in 0..<Self.notesPerWriter { #expect(titles.contains("\(prefix)-\(i)"), "\(prefix)-\(i)") }
        }
        #expect(try t.store.search("edited").hits.count == 2 * Self.notesPerWriter / 4)
        #expect(try t.store.integrityCheck() == "ok")
    }
}
