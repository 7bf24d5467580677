import Foundation
import Glibc
import NotesTestSupport
import Testing

/// Saving that cannot be starved (issue 22, item 1), in the real binary: the app types
/// without a pause long enough for the quiet delay and is killed with -9 at a random moment;
/// what it stored loses at most the maximum wait of typing.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed; the TUI end-to-end tests need it"))
struct AutosaveKillEndToEndTests {
    /// The maximum wait the test configures (short, so each run is a few seconds).
    static let maxWait = 2.0
    /// What a save may add beyond the maximum wait on a loaded machine: the key's trip through
    /// tmux, the timer, the write.
    static let slack = 1.5
    static let keyInterval = 0.25

    @Test func killedWhileTypingWithoutAPauseLosesAtMostTheMaximumWait() async throws {
        let seed = SeededRandom.seed(default: UInt64(Date().timeIntervalSince1970 * 1000))
        print("AutosaveKillEndToEndTests: seed \(seed) (CLOUDNOTES_SEED=\(seed) replays the kill moments)")
        var random = SeededRandom(seed: seed)
        for run in 1...3 {
            // Killed between 3 and 7 s into the typing: past at least one maximum wait.
            let killAfter = 3 + Double(random.below(4_000)) / 1000
            try await typeAndKill(run: run, after: killAfter, seed: seed)
        }
    }

    private func typeAndKill(run: Int, after killAfter: Double, seed: UInt64) async throws {
        let tmux = try TmuxSession()
        try tmux.writeConfig(#"{"autosaveSeconds": 1.5, "autosaveMaxSeconds": \#(Self.maxWait)}"#)
        try tmux.cli("add", "Typing", "--body", "start")
        try tmux.start()
        try await tmux.waitFor("Typing")
        try tmux.keys("Enter")
        try await tmux.waitFor("the editor's hints") { $0.contains("Esc back") }
        try tmux.keys("C-End")
        // One key every 0.25 s, never the 1.5 s of quiet the debounce waits for.
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz")
        var sent: [(at: Date, text: String)] = []
        var typed = ""
        let started = Date()
        while Date().timeIntervalSince(started) < killAfter {
            typed.append(alphabet[sent.count % alphabet.count])
            try tmux.type(String(typed.last ?? "a"))
            sent.append((Date(), typed))
            try await Task.sleep(for: .milliseconds(Int(Self.keyInterval * 1000)))
        }
        let pid = try #require(try tmux.appPID())
        kill(pid, SIGKILL)
        let killedAt = Date()
        try await tmux.waitFor("the app killed") { $0.contains("exit=137") }
        let stored = try tmux.cli("show", "Typing")
        let keptText = stored.hasPrefix("start") ? String(stored.dropFirst("start".count)) : ""
        let lost = typed.hasPrefix(keptText) ? typed.count - keptText.count : typed.count
        let mustHave = sent.last { killedAt.timeIntervalSince($0.at) > Self.maxWait + Self.slack }?.text ?? ""
        print(
            "AutosaveKillEndToEndTests: seed \(seed) run \(run): killed after \(String(format: "%.2f", killAfter)) s, typed \(typed.count) keys, lost the last \(lost) (\(String(format: "%.2f", Double(lost) * Self.keyInterval)) s of typing)"
        )
        #expect(
            stored.hasPrefix("start") && typed.hasPrefix(keptText),
            "seed \(seed) run \(run): the store holds \(stored.debugDescription), not a prefix of what was typed")
        #expect(
            keptText.count >= mustHave.count,
            "seed \(seed) run \(run): killed after \(killAfter) s lost \(lost) keys; everything typed \(Self.maxWait + Self.slack) s before the kill should be stored (\(mustHave.count) keys), the store holds \(stored.debugDescription)"
        )
    }
}
