import Foundation
import NotesTestSupport
import Testing

/// A real vault's layout imported whole, at size: `ObsidianVault` (made from a seed) of 1,900
/// notes in 80 folders of folders, YAML front matter with lists, dates in several forms, wiki
/// links of every form (by title, alias, a file name several folders share, a path), titles
/// and folder names in several scripts, hidden folders and attachments left out. Every note
/// is checked through a JSON export, every notebook through `notebooks`, and the links of a
/// sample of notes (every link form among them) through `links --json` and `backlinks --json`.
/// Replay with CLOUDNOTES_SEED; VAULT_SAMPLE=1 reads the links of every note (a process each,
/// about 85 s; `VaultLinksAtSizeTests` checks them all through the store).
@Suite struct ImportVaultAtSizeTests {
    struct Linked: Decodable, Equatable {
        var id: String
        var title: String
        var notebook: String
    }

    struct LinkRow: Decodable {
        var target: String
        var note: Linked?
    }

    static let sampleEvery = Int(ProcessInfo.processInfo.environment["VAULT_SAMPLE"] ?? "") ?? 40

    @Test func aVaultOf1900NotesInFoldersOfFoldersImportsWhole() throws {
        let seed = SeededRandom.seed(default: 1915)
        let vault = ObsidianVault(seed: seed)
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let root = cli.home.appendingPathComponent("My Vault")
        try vault.write(to: root)
        #expect(vault.notes.count == 1900 && vault.folders.count == 80)

        let started = Date()
        let result = try cli.cn("import", root.path, "--from", "obsidian")
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 0, "seed \(seed): \(result.stderr.suffix(2000))")
        #expect(
            result.stderrLines.last
                == "imported 1900 notes (1900 new, 0 updated, 0 unchanged); skipped 0 files; ignored \(vault.otherFiles) files of another type and \(vault.hidden) hidden files or folders",
            "seed \(seed)")
        print("ImportVaultAtSizeTests: seed \(seed), import of 1,900 notes took \(String(format: "%.2f", seconds)) s")

        // Folder → notebook, from the import's lines ("Work/Ideas 1/ → notebook work-ideas-1 (23 notes)").
        var zoneOf: [String: String] = ["": "notes"]
        var countOf: [String: Int] = [:]
        for line in result.stderrLines {
            guard let arrow = line.range(of: "/ → notebook ") else { continue }
            let rest = line[arrow.upperBound...].split(separator: " ")
            zoneOf[String(line[..<arrow.lowerBound])] = String(rest[0])
            countOf[String(line[..<arrow.lowerBound])] = Int(rest[1].dropFirst())
        }
        #expect(Set(zoneOf.keys) == Set([""] + vault.folders), "seed \(seed): every folder is a notebook")
        #expect(Set(zoneOf.values).count == zoneOf.count, "seed \(seed): one notebook per folder")
        for folder in vault.folders {
            #expect(countOf[folder] == vault.notes.count(where: { $0.folder == folder }), "seed \(seed): \(folder)")
        }

        // Every note: its notebook, title, tags, aliases and dates.
        let file = cli.home.appendingPathComponent("all.json")
        #expect(try cli.cn("export", file.path, "--format", "json").status == 0)
        let exported = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        #expect(exported.count == 1900, "seed \(seed)")
        var byPlace: [String: [String: Any]] = [:]
        for note in exported { byPlace["\(note["notebook"] ?? "")/\(note["title"] ?? "")"] = note }
        var ids: [String] = []
        for (n, expected) in vault.notes.enumerated() {
            let place = "\(zoneOf[expected.folder] ?? "?")/\(expected.title)"
            guard let note = byPlace[place] else {
                Issue.record("seed \(seed): note \(n) \(expected.path) is not in \(place)")
                ids.append("")
                continue
            }
            ids.append(note["id"] as? String ?? "")
            #expect(note["tags"] as? [String] == expected.tags, "seed \(seed): tags of \(expected.path)")
            if let created = expected.created {
                #expect(note["createdAt"] as? String == created, "seed \(seed): created of \(expected.path)")
                #expect(note["modifiedAt"] as? String == expected.modified, "seed \(seed): updated of \(expected.path)")
            }
            let kept = (note["frontMatter"] as? String).flatMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(
                (kept?["aliases"] as? [String] ?? []) == expected.aliases, "seed \(seed): aliases of \(expected.path)")
            #expect(!expected.text.contains("cssclasses") || kept?["cssclasses"] != nil, "seed \(seed): kept keys")
        }
        let listed = try #require(try cli.json("notebooks", "--json") as? [[String: Any]])
        var listedCounts: [String: Int] = [:]
        for row in listed { listedCounts[row["id"] as? String ?? ""] = row["count"] as? Int }
        for (folder, zone) in zoneOf {
            #expect(
                listedCounts[zone] == vault.notes.count(where: { $0.folder == folder }),
                "seed \(seed): notebook \(zone)")
        }

        // Links: a sample with every form, each leading to the note the vault meant.
        var sample: [Int] = []
        var forms: Set<String> = []
        for (n, note) in vault.notes.enumerated() where !note.links.isEmpty {
            let new = Set(note.links.map(\.form)).subtracting(forms)
            if !new.isEmpty || n % Self.sampleEvery == 0 {
                sample.append(n)
                forms.formUnion(new)
            }
        }
        #expect(forms == ["title", "shown", "heading", "alias", "fileName", "path"], "seed \(seed): \(forms)")
        let linksStarted = Date()
        for n in sample {
            let rows = try JSONDecoder().decode(
                [LinkRow].self, from: cli.cn("links", ids[n], "--json").stdoutData)
            #expect(
                rows.map { $0.note?.id ?? "(none)" } == vault.notes[n].links.map { ids[$0.target] },
                "seed \(seed): links of \(vault.notes[n].path): \(vault.notes[n].links.map(\.written))")
        }
        print(
            "ImportVaultAtSizeTests: links of \(sample.count) notes read in \(String(format: "%.2f", Date().timeIntervalSince(linksStarted))) s"
        )
        // Backlinks of the vault's top Index (every note in a folder without one links to it
        // there) and of the most linked other notes.
        var linkers: [Int: Set<String>] = [:]
        for (n, note) in vault.notes.enumerated() {
            for link in note.links { linkers[link.target, default: []].insert(ids[n]) }
        }
        let top = try #require(vault.notes.firstIndex { $0.path == "Index.md" })
        let busiest = linkers.keys.sorted { (linkers[$0]!.count, $1) > (linkers[$1]!.count, $0) }.prefix(3)
        for target in [top] + busiest {
            let back = try JSONDecoder().decode(
                [Linked].self, from: cli.cn("backlinks", ids[target], "--json").stdoutData)
            #expect(
                Set(back.map(\.id)) == linkers[target, default: []].subtracting([ids[target]]),
                "seed \(seed): backlinks of \(vault.notes[target].path)")
        }
    }
}
