import CloudFolder
import Foundation
import Glibc
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// `status` says why the last sync failed until a sync succeeds, also in another process.
@Suite("The last sync error is kept")
struct LastErrorTests {
    @Test(
        "a full or read-only cloud folder: a fresh engine (another process's status) reports it until a sync succeeds",
        arguments: [(ENOSPC, "full"), (EROFS, "read-only"), (EACCES, "permission")])
    func keptUntilSuccess(errno code: Int32, kind: String) async throws {
        let (folder, io, a, _) = try await TestFolder.memoryPair()
        _ = try a.store.create(title: "waits", body: "x\n")
        io.fail(.createExclusive, errno: code, times: 100)
        let failed = await a.engine.syncNow()
        #expect(failed.error != nil)
        let status = try SyncEngine(store: a.store, configuration: SyncEngine.Configuration(folder: folder))
        let report = await status.report()
        #expect(report.lastError?.kind == kind, "\(String(describing: report.lastError))")
        #expect(report.lastError?.message.isEmpty == false)
        io.clearFaults()
        let ok = await a.engine.syncNow()
        #expect(ok.error == nil)
        let after = try SyncEngine(store: a.store, configuration: SyncEngine.Configuration(folder: folder))
        #expect(await after.report().lastError == nil)
    }

    @Test("wrong S3 credentials say sign-in failed, with the server's reason, never local only")
    func wrongCredentialsSaySignInFailed() async throws {
        let server = try await SeaweedServer.shared.endpoint()
        let endpoint = S3Endpoint(
            url: URL(string: server.url)!, bucket: server.bucket, region: "us-east-1",
            credentials: .init(accessKeyID: "nobody", secretAccessKey: "wrong-secret-xyz"), timeout: 20)
        let folder = DirectoryCloudFolder(
            root: "/sync-\(UUID().uuidString.lowercased())", io: S3FileIO(client: S3Client(endpoint: endpoint)))
        let a = try TestDevice("a", folder: folder)
        _ = try a.store.create(title: "waits", body: "x\n")
        let summary = await a.engine.syncNow()
        #expect(summary.error?.code == .notAuthenticated)
        let phase = await a.engine.status.phase
        guard case .signInFailed(let reason) = phase else {
            Issue.record("the phase is \(phase), not sign-in failed")
            return
        }
        #expect(reason.contains("refused the credentials") && reason.contains("1 change(s) wait here"), "\(reason)")
        #expect(!reason.contains("wrong-secret-xyz"))
        let report = await a.engine.report()
        #expect(report.accountStatus.name == "signInFailed", "\(report.accountStatus)")
        #expect(report.lastError?.kind == "sign-in", "\(String(describing: report.lastError))")
    }

    @Test("a note held back by the size limit is listed with its reason by a fresh engine")
    func heldListed() async throws {
        let (folder, _, a, _) = try await TestFolder.memoryPair()
        let note = try a.store.create(title: "big", body: String(repeating: "0123456789abcdef\n", count: 70_000))
        await a.sync()
        let status = try SyncEngine(store: a.store, configuration: SyncEngine.Configuration(folder: folder))
        let held = await status.report().held
        #expect(held[note.id.lowercasedString]?.contains("1 MB") == true, "\(held)")
    }
}
