import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import Testing

/// Device-id clones (SYNC-FORMAT rule 10): a copied data directory or a restored backup publishes
/// under the same device id as the original. The copy that finds a file it did not write moves
/// to a new id; nothing is overwritten and no edit is lost.
@Suite("Device-id clone rotation (SYNC-FORMAT rule 10)")
struct CloneRotationTests {
    /// When the original finds the copy's file: at the start of a new session (a new process),
    /// or while publishing in a session that had already started.
    enum Moment: String, CaseIterable, CustomTestStringConvertible {
        case atStart, whilePublishing
        var testDescription: String { rawValue }
    }

    @Test(
        "a copied data directory: one copy rotates, both sync without losing an edit",
        arguments: Moment.allCases, [(FolderBackend.memory, FolderKind.plain), (.s3, .plain), (.s3, .encrypted)])
    func copiedDataDirectory(_ moment: Moment, _ over: (backend: FolderBackend, kind: FolderKind)) async throws {
        let (folder, devices) = try await over.backend.devices(2, over.kind)
        let (a, b) = (devices[0], devices[1])
        let note = try a.store.create(title: "shared", body: "l1\nl2\nl3\nl4\n")
        try await quiesce([a, b])
        let original = await a.engine.device
        let copy = try a.copied(as: "a-copy", folder: folder)
        #expect(await copy.engine.device == original)
        // The copy edits and publishes first, under the shared id.
        _ = try copy.store.update(note.id) { $0.body = $0.body.replacingOccurrences(of: "l1\n", with: "l1 copy\n") }
        let fromCopy = try copy.store.create(title: "made on the copy", body: "copy\n")
        await copy.sync()
        let copyFiles = try folder.logFiles(of: original)
        // The original edits too, then syncs (in a new process, or in the session it had).
        _ = try a.store.update(note.id) { $0.body = $0.body.replacingOccurrences(of: "l4\n", with: "l4 original\n") }
        let fromOriginal = try a.store.create(title: "made on the original", body: "original\n")
        let engine: SyncEngine
        switch moment {
        case .atStart:
            engine = try SyncEngine(
                store: a.store,
                configuration: SyncEngine.Configuration(folder: folder, deviceName: "a", now: { a.clock.date }))
        case .whilePublishing:
            engine = a.engine
        }
        let summary = await engine.syncNow()
        #expect(summary.error == nil, "\(String(describing: summary.error))")
        let rotated = await engine.device
        #expect(rotated != original)
        #expect(await copy.engine.device == original)
        // Nothing under the shared id was overwritten.
        #expect(try folder.logFiles(of: original) == copyFiles)
        #expect(await engine.warnings.contains { $0.contains("now publishes as \(rotated)") })
        let report = await engine.report()
        #expect(report.warnings.contains { $0.contains("copy of device \(original)") }, "\(report.warnings)")
        #expect(report.device == rotated)
        // The rotated store opens with its new id from now on.
        #expect(try NoteStore(directory: a.directory).deviceID == rotated.rawValue)

        let restarted = try TestDevice("a", folder: folder, clock: a.clock, directory: a.directory)
        try await quiesce([restarted, copy, b])
        for device in [restarted, copy, b] {
            let body = try #require(try device.store.note(note.id)).body
            #expect(body == "l1 copy\nl2\nl3\nl4 original\n", "\(device.name): \(body)")
            #expect(try device.store.note(fromCopy.id) != nil, "\(device.name)")
            #expect(try device.store.note(fromOriginal.id) != nil, "\(device.name)")
            #expect(try device.store.pendingCount() == 0, "\(device.name)")
        }
        #expect(await restarted.engine.device == rotated)
        // Later edits on both go out, each under its own id.
        _ = try restarted.store.update(note.id) { $0.title = "after rotation" }
        _ = try copy.store.update(fromCopy.id) { $0.body = "copy, later\n" }
        try await quiesce([restarted, copy, b])
        #expect(try b.store.note(note.id)?.title == "after rotation")
        #expect(try b.store.note(fromCopy.id)?.body == "copy, later\n")
        #expect(try folder.logFiles(of: rotated).isEmpty == false)
    }
}
