import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync

/// Encryption's cost (SYNC-FORMAT rule 14), plain and encrypted side by side in one run: the
/// publication of `count` notes from device A, the initial sync into an empty device B, the
/// folder's size, and the bytes one edit adds.
struct EncryptionBenchmark {
    let count: Int
    let work: String

    func run() async throws {
        print("\n== encryption, \(count) notes ==")
        var results: [(String, Double, Double, Int, Int)] = []
        for encrypted in [false, true] {
            let label = encrypted ? "encrypted" : "plain"
            let folder = try BenchFolder(directory: "\(work)/encryption-\(count)-\(label)", encrypted: encrypted)
            let device = folder.device
            let (storeA, engineA) = try device("a")
            let notes = (0..<count).map(SyncBenchmark.note)
            _ = try storeA.importNotes(notes)
            var summary = SyncSummary()
            let publishMs = await Stats.timeAsync { summary = await engineA.syncNow() }
            precondition(summary.error == nil, "\(label): A's send failed: \(String(describing: summary.error))")
            let (_, engineB) = try device("b")
            let initialMs = await Stats.timeAsync { summary = await engineB.syncNow() }
            precondition(summary.fetched.changed.count == count, "\(label): B got \(summary.fetched.changed.count)")
            let before = SyncBenchmark.folderBytes(folder.cloud)
            _ = try storeA.update(notes[0].id) { $0.body += "one more line\n" }
            _ = await engineA.syncNow()
            let perEdit = SyncBenchmark.folderBytes(folder.cloud) - before
            results.append((label, publishMs, initialMs, before, perEdit))
            print(
                "\(label): publish \(Stats.f(publishMs / 1000, 2)) s, initial sync into an empty device "
                    + "\(Stats.f(initialMs / 1000, 2)) s, folder \(before / 1_000_000) MB, one edit adds \(perEdit) bytes"
            )
        }
        let (plain, sealed) = (results[0], results[1])
        print(
            "encrypted / plain: publish \(Stats.f(sealed.1 / plain.1, 2))x, initial sync \(Stats.f(sealed.2 / plain.2, 2))x "
                + "(target: under 1.20), folder \(Stats.f(Double(sealed.3) / Double(plain.3), 2))x, "
                + "bytes per edit \(Stats.f(Double(sealed.4) / Double(plain.4), 2))x")
    }
}
