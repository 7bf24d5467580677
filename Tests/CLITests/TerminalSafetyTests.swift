import Foundation
import Testing

/// On a terminal, note text reaches the screen only through TerminalSafeText (ARCHITECTURE §7).
/// The binary runs under script(1), so stdout is a pseudo-terminal.
@Suite struct TerminalSafetyTests {
    static let evilTitle = "Evil\u{1B}[31m red \u{202E}rtl\u{9B}2J"
    static let evilBody = "line\u{1B}]0;pwned\u{07}\r\nnext \u{1B}[2J\u{202E}\u{200B}x\u{9B}31m\n"
    static let evilTag = "t\u{1B}[5m\u{202E}"

    /// Raw sequences from the note that must never reach the terminal.
    static let forbidden = [
        "\u{1B}[31m", "\u{1B}]0;", "\u{1B}[2J", "\u{1B}[5m", "\u{202E}", "\u{9B}", "\u{200B}", "\u{07}",
    ]

    func seeded() throws -> (CLIRunner, String) {
        let cli = try CLIRunner()
        let id = "e0000000-0000-4000-8000-000000000001"
        try cli.seed([CLIRunner.fixture(id: id, title: Self.evilTitle, body: Self.evilBody, tags: [Self.evilTag])])
        #expect(try cli.cn("edit", id, "--body", Self.evilBody + "v2").status == 0)
        return (cli, id)
    }

    static let commands: [[String]] = [
        ["list"], ["list", "--json"], ["show", "e0000000"], ["show", "e0000000", "--json"], ["search", "evil"],
        ["search", "evil", "--json"], ["tag", "e0000000"], ["tag", "e0000000", "--json"], ["history", "e0000000"],
        ["history", "e0000000", "--json"], ["fav", "e0000000"], ["unfav", "e0000000"], ["rm", "e0000000"],
        ["list", "--trash"], ["restore", "e0000000"], ["edit", "e0000000", "--title", "Evil\u{1B}[31m"],
    ]

    @Test(arguments: commands)
    func noteTextNeverReachesTheTerminalRaw(arguments: [String]) throws {
        let (cli, id) = try seeded()
        defer { cli.cleanUp() }
        for colour in [["NO_COLOR": "1"], [:]] {
            if arguments == ["restore", "e0000000"] || arguments == ["list", "--trash"] {
                #expect(try cli.cn("rm", id).status == 0)
            }
            let result = try cli.inTerminal(arguments, environment: colour)
            #expect(result.status == 0, "\(arguments): \(result.stdout)")
            #expect(!result.stdout.isEmpty, "\(arguments) printed nothing")
            for sequence in Self.forbidden {
                #expect(
                    !result.stdout.contains(sequence), "\(arguments) \(colour) let \(sequence.debugDescription) through"
                )
            }
            if !colour.isEmpty || arguments.contains("--json") {
                #expect(
                    !result.stdout.unicodeScalars.contains("\u{1B}"),
                    "\(arguments) \(colour): no escape sequences at all")
            }
        }
    }

    @Test func jsonOnATerminalIsEscapedButMeansTheSameText() throws {
        let (cli, id) = try seeded()
        defer { cli.cleanUp() }
        let result = try cli.inTerminal("show", id, "--json")
        #expect(result.stdout.contains(#"\u202e"#))
        let note = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(note["title"] as? String == Self.evilTitle)
        #expect(note["body"] as? String == Self.evilBody + "v2")
    }

    @Test func showOnATerminalPrintsTheSafeBodyAndDetails() throws {
        let (cli, id) = try seeded()
        defer { cli.cleanUp() }
        let result = try cli.inTerminal("show", id, environment: ["NO_COLOR": "1"])
        let lines = result.stdout.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "Evil␛[31m red <U+202E>rtl<U+009B>2J")
        #expect(lines.contains { $0.hasPrefix("id \(id)  notebook notes") })
        #expect(lines.contains("line␛]0;pwned␇"))
        #expect(lines.contains("next ␛[2Jx<U+009B>31m"))
    }

    @Test func candidatesOfAnAmbiguousReferenceAreReadableOnATerminal() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.add("Twin", body: "1", "--tag", "x")
        try cli.add("Twin", body: "2")
        let result = try cli.inTerminal("show", "Twin")
        #expect(result.status == 1)
        #expect(result.stdout.contains("matches 2 notes"))
        #expect(!result.stdout.contains("␛"), "colour codes must not show up as ␛[2m")
        #expect(!result.stdout.contains("\u{1B}"))
    }

    @Test func editedTitlesWithEscapesAreStoredAsGiven() throws {
        let (cli, id) = try seeded()
        defer { cli.cleanUp() }
        #expect(try cli.cn("edit", id, "--title", "T\u{1B}[1m").status == 0)
        #expect(try cli.note(id)["title"] as? String == "T\u{1B}[1m", "storage stays byte-identical")
    }

    @Test func aDeviceIdFromAnotherDeviceIsShownSafely() throws {
        let (cli, id) = try seeded()
        defer { cli.cleanUp() }
        try cli.damage("UPDATE revision SET device = 'dev' || char(27) || '[31m' || char(8238)")
        let result = try cli.inTerminal("history", id, environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        // A device with no known name is shown by its id's first eight characters, made safe.
        #expect(result.stdout.contains("dev␛[31m"))
        #expect(!result.stdout.contains("\u{1B}"))
    }
}
