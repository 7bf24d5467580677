import CloudFolder
import Foundation
import Glibc
import NotesCore
import NotesStore
import NotesSync
import Testing

/// `sync init` is atomic (SYNC-FORMAT rule 12, "Joining"): it completes, or leaves the data
/// directory as it was, whatever step fails or is killed.
@Suite("Joining a cloud folder")
struct JoinTests {
    enum Fault: CustomStringConvertible {
        /// The next n calls of the step fail (a failure that persists for a while).
        case error(FileIOStep, times: Int)
        /// The process dies at the n-th call of the step.
        case crash(FileIOStep, occurrence: Int)

        var description: String {
            switch self {
            case .error(let step, let n): "EIO at the next \(n) \(step)"
            case .crash(let step, let n): "kill at \(step) #\(n)"
            }
        }
    }

    /// Every step of a join into an empty folder, as an error and as a kill, at each occurrence.
    static var faults: [Fault] {
        FileIOStep.allCases.flatMap { step in
            (1...3).flatMap { n in [Fault.error(step, times: n), .crash(step, occurrence: n)] }
        }
    }

    @Test("a failure or a kill at any step: the data directory is as it was, or bound; the next init works")
    func everyStep() async throws {
        for fault in Self.faults {
            let io = InMemoryFileIO()
            io.plantDirectory("/cloud")
            let folder = DirectoryCloudFolder(root: "/cloud", io: io)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("join-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try NoteStore(directory: directory)
            _ = try store.create(title: "mine", body: "x\n")
            switch fault {
            case .error(let step, let n): io.fail(step, errno: EIO, times: n)
            case .crash(let step, let n): io.crash(at: step, occurrence: n)
            }
            let joined = try? SyncEngine.join(folder, store: store, path: "/cloud")
            let state = try store.engineState().map(SyncEngineState.init(serialized:))
            let bound = try store.boundCloudFolder()
            if joined == nil {
                #expect(bound == nil && state?.containerID == nil, "\(fault): half a binding")
            } else {
                #expect(bound == "/cloud" && state?.containerID == joined, "\(fault)")
            }
            io.restart()
            io.clearFaults()
            let again = try SyncEngine.join(folder, store: store, path: "/cloud")
            #expect(joined == nil || again == joined, "\(fault)")
            let engine = try SyncEngine(store: store, configuration: SyncEngine.Configuration(folder: folder))
            let summary = await engine.syncNow()
            #expect(summary.error == nil, "\(fault): \(String(describing: summary.error))")
            #expect(summary.sent.sent == 1, "\(fault)")
        }
    }

    @Test("a data directory an older init stranded (container id, no binding) joins its folder again")
    func strandedRepaired() async throws {
        let (folder, _) = TestFolder.memory()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("join-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try NoteStore(directory: directory)
        let engine = try SyncEngine(store: store, configuration: SyncEngine.Configuration(folder: folder))
        _ = await engine.syncNow()
        #expect(try store.boundCloudFolder() == nil)
        let id = try SyncEngine.join(folder, store: store, path: "/cloud")
        #expect(try store.boundCloudFolder() == "/cloud")
        #expect(try store.engineState().map(SyncEngineState.init(serialized:))?.containerID == id)
        // Another account's folder is refused, and changes nothing.
        let (other, _) = TestFolder.memory()
        let stranger = try NoteStore(directory: directory.appendingPathComponent("other"))
        _ = try SyncEngine.join(other, store: stranger, path: "/other")
        #expect(throws: CloudError.self) { try SyncEngine.join(other, store: store, path: "/other") }
        #expect(try store.boundCloudFolder() == "/cloud")
    }
}
