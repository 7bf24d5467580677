import Foundation
import Testing

/// An encrypted cloud folder with `"rememberKey": false`: the real app opens, asks for the
/// passphrase in its dialog (not on the terminal before its screen), refuses a wrong one, and
/// with the right one syncs the other device's note in.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed; the TUI end-to-end tests need it"))
struct UnlockEndToEndTests {
    @Test func theAppAsksForThePassphraseInADialogAndSyncsOnceUnlocked() async throws {
        let tmux = try TmuxSession()
        let cloud = tmux.home.appendingPathComponent("cloud").path
        let other = tmux.home.appendingPathComponent("other")
        // The other device creates the encrypted folder (cheap scrypt for tests) and a note.
        tmux.extraEnvironment = ["CLOUDNOTES_PASSPHRASE": "open sesame", "CLOUDNOTES_SCRYPT_LOG_N": "10"]
        try tmux.cli(dataDirectory: other, ["sync", "init", cloud, "--encrypt"])
        try tmux.cli(dataDirectory: other, ["add", "Sealed plan", "--body", "from the other device"])
        try tmux.cli(dataDirectory: other, ["sync"])
        tmux.extraEnvironment = [:]
        try tmux.writeConfig(#"{"cloudFolder": "\#(cloud)", "rememberKey": false}"#)
        try tmux.start()
        try await tmux.waitFor("Encrypted cloud folder")
        try tmux.type("not it")
        try await tmux.waitFor("••••••")
        try tmux.keys("Enter")
        try await tmux.waitFor("wrong passphrase", seconds: 20)
        try tmux.type("open sesame")
        try tmux.keys("Enter")
        try await tmux.waitFor("the note synced in", seconds: 30) {
            $0.contains("Sealed plan") && !$0.contains("Encrypted cloud")
        }
        #expect(!(try tmux.screen()).contains("open sesame"), "the passphrase is never drawn")
        // Not remembered: no key file in the data directory.
        #expect(
            !FileManager.default.fileExists(atPath: tmux.dataDirectory.appendingPathComponent("folder-key.json").path))
        try tmux.keys("q")
        try await tmux.waitFor("exit=0")
    }
}
