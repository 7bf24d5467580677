import CloudFolder
import Crypto
import Foundation
import Logging
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

extension NoteStore: SyncStore {}
extension NoteStore: AttachmentContent {}

/// One device: its own store in a temp directory and an engine over the shared cloud folder.
final class TestDevice: @unchecked Sendable {
    let name: String
    let directory: URL
    let store: NoteStore
    let engine: SyncEngine
    let clock: TestClock

    /// `maxRecordBytes`: the largest note that syncs; 1 MB here by default, so the limit's
    /// scenarios stay cheap (a large-note scenario passes the engine's 1 GB).
    init(
        _ name: String, folder: any CloudFolder, strategy: ConflictStrategy = .merge, clock: TestClock = TestClock(),
        directory: URL? = nil, maxRecordBytes: Int = 1_048_576
    ) throws {
        self.name = name
        self.clock = clock
        self.directory =
            directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(name)-\(UUID().uuidString)")
        store = try NoteStore(directory: self.directory, clock: { clock.date })
        var configuration = SyncEngine.Configuration(
            folder: folder, deviceName: name, conflictStrategy: strategy, now: { clock.date })
        // Warnings are asserted through `engine.warnings`; printing each sync's (the hostile
        // harness syncs thousands of times) only buried a failing run's output.
        configuration.logger.logLevel = .error
        configuration.maxRecordBytes = maxRecordBytes
        engine = try SyncEngine(store: store, configuration: configuration)
    }

    /// A second device made by copying this one's data directory (a copied data directory or a
    /// restored backup: same device id, same engine state), with a clock of its own.
    func copied(as name: String, folder: any CloudFolder, maxRecordBytes: Int = 1_048_576) throws -> TestDevice {
        try store.makeDurable()
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        // After a full checkpoint the database file holds every commit; the -wal and -shm of a
        // live database are not copied.
        try FileManager.default.copyItem(
            at: directory.appendingPathComponent(NoteStore.databaseFileName),
            to: copy.appendingPathComponent(NoteStore.databaseFileName))
        return try TestDevice(
            name, folder: folder, clock: TestClock(clock.date.millisecondsSince1970), directory: copy,
            maxRecordBytes: maxRecordBytes)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Sends, fetches and sends what the fetch merged; fails the test on an error.
    @discardableResult
    func sync(sourceLocation: SourceLocation = #_sourceLocation) async -> SyncSummary {
        let summary = await engine.syncNow()
        #expect(
            summary.error == nil, "\(name): \(summary.error.map(String.init(describing:)) ?? "")",
            sourceLocation: sourceLocation)
        return summary
    }

    /// Every note (trash included) as id → fields, for byte-wise comparison across devices.
    func snapshot() throws -> [UUID: NoteState] {
        var result: [UUID: NoteState] = [:]
        for section in [ListSection.all, .trash] {
            for summary in try store.list(ListRequest(section: section, limit: 100_000)) {
                let note = try #require(try store.note(summary.id))
                result[note.id] = NoteState(note)
            }
        }
        return result
    }
}

/// What must be identical on every device once sync is quiet.
struct NoteState: Equatable, CustomStringConvertible {
    var headRev: String?
    var title: [UInt8]
    var body: [UInt8]
    var tags: [String]
    var isFavorite: Bool
    var inTrash: Bool
    var attachments: [NotesCore.Attachment]

    init(_ note: Note) {
        headRev = note.headRev
        title = Array(note.title.utf8)
        body = Array(note.body.utf8)
        tags = note.tags
        isFavorite = note.isFavorite
        inTrash = note.isTrashed
        attachments = note.attachments
    }

    var description: String {
        "rev \(headRev?.prefix(8) ?? "-") \(String(decoding: title, as: UTF8.self)): \(String(decoding: body, as: UTF8.self).debugDescription)"
    }
}

/// Cloud folders for tests: in memory, or a fresh temp directory.
/// Whether a scenario runs over a plain or an encrypted container (SYNC-FORMAT rule 14): the
/// scenario suites take it as an argument, so every scenario runs on both.
enum FolderKind: String, CaseIterable, CustomTestStringConvertible {
    case plain, encrypted
    var testDescription: String { rawValue }
}

enum TestFolder {
    /// An in-memory folder; `encrypted` gives it a seal (SYNC-FORMAT rule 14) every device shares,
    /// as devices that were given the passphrase do.
    static func memory(encrypted: Bool = false) -> (DirectoryCloudFolder, InMemoryFileIO) {
        let io = InMemoryFileIO()
        io.plantDirectory("/cloud")
        return (DirectoryCloudFolder(root: "/cloud", io: io, seal: encrypted ? testSeal() : nil), io)
    }

    /// A seal over a fresh random data key and container id.
    static func testSeal() -> FolderSeal {
        FolderSeal(dataKey: SymmetricKey(size: .bits256), containerID: UUID().uuidString.lowercased())
    }

    /// An in-memory folder with two devices that have synced once.
    static func memoryPair(_ kind: FolderKind = .plain) async throws -> (
        DirectoryCloudFolder, InMemoryFileIO, TestDevice, TestDevice
    ) {
        let (folder, io) = memory(encrypted: kind == .encrypted)
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        try await quiesce([a, b])
        return (folder, io, a, b)
    }

    /// A folder in the loopback SeaweedFS bucket under a fresh prefix (S3FileIO, SYNC-FORMAT
    /// "On S3"): the same format over object storage.
    static func s3(encrypted: Bool = false) async throws -> DirectoryCloudFolder {
        let server = try await SeaweedServer.shared.endpoint()
        let endpoint = S3Endpoint(
            url: URL(string: server.url)!, bucket: server.bucket, region: "us-east-1",
            credentials: .init(accessKeyID: server.accessKey, secretAccessKey: server.secretKey), timeout: 20)
        return DirectoryCloudFolder(
            root: "/sync-\(UUID().uuidString.lowercased())", io: S3FileIO(client: S3Client(endpoint: endpoint)),
            seal: encrypted ? testSeal() : nil)
    }

    static func disk(encrypted: Bool = false) throws -> DirectoryCloudFolder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cloud-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return DirectoryCloudFolder(root: path, seal: encrypted ? testSeal() : nil)
    }
}

/// Syncs devices round-robin until a full round moves nothing, then expects them identical.
func quiesce(
    _ devices: [TestDevice], maxRounds: Int = 10, label: String = "", sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    for _ in 0..<maxRounds {
        var moved = false
        for device in devices {
            let summary = await device.sync(sourceLocation: sourceLocation)
            if summary.sent.sent > 0 || summary.fetched.received > 0 { moved = true }
        }
        if !moved { break }
    }
    let first = try devices[0].snapshot()
    for device in devices.dropFirst() {
        let other = try device.snapshot()
        #expect(
            other == first, "\(label) \(device.name) differs from \(devices[0].name)", sourceLocation: sourceLocation)
    }
}
