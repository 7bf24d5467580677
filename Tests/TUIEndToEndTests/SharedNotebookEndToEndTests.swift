import Foundation
import Testing

/// A notebook shared with this account read-only, in the real app (issue 24): the picker names
/// the owner and the role, the note opens read-only saying who shares it and takes no typing,
/// and the owner's edit arrives through the app's own background sync of the shared place
/// (no `sync` run on this side). Every wait has a deadline of 30 s: the CI machine is loaded.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed; the TUI end-to-end tests need it"))
struct SharedNotebookEndToEndTests {
    static let wait: Double = 30

    /// The account's identity code and fingerprint (`share id --json`).
    private func identity(_ tmux: TmuxSession, _ directory: URL, name: String) throws -> (
        code: String, fingerprint: String
    ) {
        let output = try tmux.cli(dataDirectory: directory, ["share", "id", "--name", name, "--json"])
        let json = (try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: String]) ?? [:]
        return (json["code"] ?? "", json["fingerprint"] ?? "")
    }

    @Test func aReadOnlyMemberSeesTheOwnerTheRoleAndTheOwnersEditsAndCannotType() async throws {
        let tmux = try TmuxSession()
        let ana = tmux.home.appendingPathComponent("ana")
        // Two accounts: each its own private cloud folder (the default one is shared by every
        // data directory under this HOME).
        try tmux.cli(dataDirectory: ana, ["sync", "init", tmux.home.appendingPathComponent("cloud-ana").path])
        try tmux.cli("sync", "init", tmux.home.appendingPathComponent("cloud-cy").path)
        let owner = try identity(tmux, ana, name: "Ana")
        let cy = try identity(tmux, tmux.dataDirectory, name: "Cy")
        try tmux.cli(dataDirectory: ana, ["notebook", "create", "Trip"])
        try tmux.cli(dataDirectory: ana, ["add", "Packing", "--body", "socks", "--notebook", "Trip"])
        let place = tmux.home.appendingPathComponent("shared-trip").path
        try tmux.cli(dataDirectory: ana, ["share", "create", "Trip", place])
        try tmux.cli(dataDirectory: ana, ["share", "invite", place, cy.code, "--role", "read-only"])
        try tmux.cli("share", "accept", place, "--fingerprint", owner.fingerprint)

        try tmux.start()
        try await tmux.waitFor("Packing", seconds: Self.wait)
        try tmux.type("N")
        try await tmux.waitFor("the picker naming the owner and the role", seconds: Self.wait) {
            $0.contains("Trip") && $0.contains("shared by Ana (\(owner.fingerprint)) · read-only")
        }
        try tmux.keys("Escape")
        try await tmux.waitFor("the picker closed", seconds: Self.wait) { !$0.contains("Notebooks") }

        try tmux.keys("Enter")
        try await tmux.waitFor("the editor saying why it is read-only", seconds: Self.wait) {
            $0.contains("Read-only, shared by Ana")
        }
        try tmux.type("zz")
        try tmux.keys("Escape")
        try await tmux.waitFor("the editor closed", seconds: Self.wait) { !$0.contains("Read-only, shared by") }
        #expect(try tmux.cli("show", "Packing").contains("socks"))
        #expect(try !tmux.cli("show", "Packing").contains("zz"))

        // Ana edits; the app's background sync of the place brings it, with no `sync` here.
        try tmux.cli(dataDirectory: ana, ["edit", "Packing", "--body", "socks, hat"])
        try tmux.cli(dataDirectory: ana, ["sync"])
        try await tmux.waitFor("the owner's edit in the preview", seconds: Self.wait) { $0.contains("socks, hat") }
        try tmux.type("q")
        try await tmux.waitFor("exit=0", seconds: Self.wait)
    }
}
