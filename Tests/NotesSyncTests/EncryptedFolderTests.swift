import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// An encrypted container (SYNC-FORMAT rule 14) as an outsider and an attacker see it.
@Suite("Encrypted cloud folder")
struct EncryptedFolderTests {
    /// Every form a marker word could leak in: raw UTF-8, UTF-16 (both orders), base64.
    static func forms(_ word: String) -> [[UInt8]] {
        let utf8 = Array(word.utf8)
        let utf16le = word.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        let utf16be = word.utf16.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
        // Base64 of the word at each of the three alignments, without the edge characters.
        let base64 = (0..<3).map { shift -> [UInt8] in
            let encoded = Data([UInt8](repeating: 0x20, count: shift) + utf8).base64EncodedString()
            return Array(encoded.utf8.dropFirst(shift == 0 ? 0 : shift + 1).dropLast(3))
        }
        return [utf8, utf16le, utf16be] + base64
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count, !needle.isEmpty else { return false }
        return (0...(haystack.count - needle.count)).contains {
            haystack[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }

    @Test("no file and no file or folder name holds a title, body, tag or notebook name")
    func nothingReadableInTheFolder() async throws {
        let (folder, io) = TestFolder.memory(encrypted: true)
        let a = try TestDevice("laptop", folder: folder)
        let b = try TestDevice("desktop", folder: folder)
        let markers = ["oatmilkmarker", "zanzibartitle", "quokkatag", "recipesnotebook"]
        _ = try a.store.create(title: "zanzibartitle", body: "buy oatmilkmarker\n", tags: ["quokkatag"])
        _ = try a.store.create(title: "second", body: "in a notebook\n", zone: "recipesnotebook")
        try await quiesce([a, b])
        for n in 0..<3 {
            _ = try a.store.create(title: "more \(n)", body: "\(n)\n")
            _ = await a.sync()
        }
        // Compaction writes snapshots too.
        let compacted = try await a.engine.compact()
        try await quiesce([a, b])
        #expect(try b.store.list(ListRequest(section: .all, limit: 10)).count == 5, "\(compacted)")
        let paths = io.allPaths()
        #expect(paths.contains { $0.contains("/snapshots/") })
        for path in paths {
            for marker in markers {
                #expect(!path.contains(marker), "\(path) names \(marker)")
                guard let bytes = io.contents(path) else { continue }
                for form in Self.forms(marker) {
                    #expect(!Self.contains(bytes, form), "\(path) holds \(marker)")
                }
            }
        }
    }

    @Test(
        "a flipped byte, a cut file and a file moved onto another's name are refused and reported; a good copy is then accepted"
    )
    func tamperedFilesAreRefusedAndReported() async throws {
        let (folder, io) = TestFolder.memory(encrypted: true)
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        try await quiesce([a, b])
        for n in 1...3 {
            _ = try a.store.create(title: "n\(n)", body: "\(n)\n")
            _ = await a.sync()
        }
        let device = await a.engine.device
        let logs = io.allPaths().filter { $0.contains("/log/\(device)/") && $0.hasSuffix(".json") }.sorted()
        #expect(logs.count >= 3)
        let target = logs[logs.count - 3]
        let good = try #require(io.contents(target))
        let damages: [(String, [UInt8])] = [
            ("flipped", good.enumerated().map { $0.offset == good.count / 2 ? $0.element ^ 0x40 : $0.element }),
            ("cut", Array(good.prefix(good.count - 7))),
            ("moved", try #require(io.contents(logs[logs.count - 1]))),
        ]
        for (label, damaged) in damages {
            let c = try TestDevice("c-\(label)", folder: folder)
            io.plantFile(target, damaged)
            let summary = await c.sync()
            #expect(summary.fetched.notArrived >= 1, "\(label)")
            let warnings = await c.engine.warnings
            #expect(warnings.contains { $0.contains(target) && $0.contains("seal") }, "\(label): \(warnings)")
            #expect(await c.engine.status.waitingCount == 1, "\(label)")
            // Nothing of the stream past the bad file is applied.
            #expect(try c.store.list(ListRequest(section: .all, limit: 10)).count < 3, "\(label)")
            io.plantFile(target, good)
            _ = await c.sync()
            #expect(try c.store.list(ListRequest(section: .all, limit: 10)).count == 3, "\(label)")
            #expect(await c.engine.status.waitingCount == 0, "\(label)")
        }
    }

    @Test("a device without the key refuses the folder and writes nothing")
    func noKeyNoWrites() async throws {
        let (folder, io) = TestFolder.memory(encrypted: true)
        let a = try TestDevice("a", folder: folder)
        _ = try a.store.create(title: "n", body: "x\n")
        _ = await a.sync()
        let before = io.allPaths().map { ($0, io.contents($0)) }
        let plain = DirectoryCloudFolder(root: "/cloud", io: io)
        let stranger = try TestDevice("stranger", folder: plain)
        _ = try stranger.store.create(title: "mine", body: "y\n")
        let summary = await stranger.engine.syncNow()
        #expect(summary.error?.code == .notAuthenticated)
        let after = io.allPaths().map { ($0, io.contents($0)) }
        #expect(after.map(\.0) == before.map(\.0))
        #expect(zip(after, before).allSatisfy { $0.1 == $1.1 })
    }
}
