import CloudFolder
import Foundation
import Testing

/// docs/SYNC-FORMAT.md and docs/ARCHITECTURE.md agree with the code on what can be counted:
/// the numbered rules, the envelope formats a build reads, and the rule count the map states.
@Suite struct DocsDriftTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The lines of the section that starts with the heading `title`, up to the next `## `.
    static func section(_ title: String, of document: String) -> [Substring] {
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(title)) else { return [] }
        let rest = lines[(start + 1)...]
        return Array(rest.prefix { !$0.hasPrefix("## ") })
    }

    /// The numbers of the rules in SYNC-FORMAT's "## Rules" (`N. **Title.**` lines).
    static func documentedRules() throws -> [Int] {
        section("## Rules", of: try text("docs/SYNC-FORMAT.md")).compactMap { line in
            guard let match = line.firstMatch(of: /^(\d+)\. \*\*/) else { return nil }
            return Int(match.1)
        }
    }

    /// Every rule number that a comment in Sources cites as `SYNC-FORMAT rule N` (or `rules N and M`).
    static func citedRules() throws -> Set<Int> {
        var cited: Set<Int> = []
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            // A citation may break after "SYNC-FORMAT" onto the next comment line.
            for match in text.matches(of: /SYNC-FORMAT\s+(?:\/\/\/?\s*)?rules?\s+(\d+)(?: and (\d+))?/) {
                cited.insert(Int(match.1) ?? 0)
                if let second = match.2 { cited.insert(Int(second) ?? 0) }
            }
        }
        return cited
    }

    @Test func theRulesAreNumberedOneToNAndTheCodeCitesEachOfThem() throws {
        let rules = try Self.documentedRules()
        #expect(rules.count >= 16, "SYNC-FORMAT's ## Rules lost its numbered rules: \(rules)")
        #expect(rules == Array(1...max(rules.count, 1)), "rules are numbered \(rules)")
        let cited = try Self.citedRules()
        #expect(
            cited.subtracting(rules).isEmpty,
            "Sources cite rules SYNC-FORMAT does not have: \(cited.subtracting(rules).sorted())")
        #expect(Set(rules).subtracting(cited).isEmpty, "rules no code cites: \(Set(rules).subtracting(cited).sorted())")
    }

    @Test func architectureStatesTheRuleCountOfSyncFormat() throws {
        let architecture = try Self.text("docs/ARCHITECTURE.md")
        let stated = architecture.matches(of: /(\d+) numbered rules/).compactMap { Int($0.1) }
        let count = try Self.documentedRules().count
        #expect(!stated.isEmpty, "ARCHITECTURE.md no longer says how many numbered rules SYNC-FORMAT has")
        #expect(stated.allSatisfy { $0 == count }, "ARCHITECTURE says \(stated); SYNC-FORMAT has \(count)")
    }

    /// SYNC-FORMAT's "## Envelope" lists one `- format N:` line per format; a build reads formats
    /// 1...4 everywhere and recognises 5 (a folder encrypted in place), 6 (a keys file of
    /// more than one key) and 7 (a shared place's `container.json`).
    @Test func theEnvelopeFormatsDocumentedAreTheFormatsTheCodeKnows() throws {
        let documented = Self.section("## Envelope", of: try Self.text("docs/SYNC-FORMAT.md")).compactMap { line in
            line.firstMatch(of: /^- format (\d+):/).flatMap { Int64($0.1) }
        }
        let known =
            Array(Envelope.supportedFormats) + [
                DirectoryCloudFolder.encryptedInPlaceFormat, Envelope.keyringFormat, SharedPlace.containerFormat,
            ]
        #expect(documented == known)
    }
}
