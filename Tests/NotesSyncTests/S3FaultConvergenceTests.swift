import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// Two devices over SeaweedFS, A's requests through a proxy that cuts connections both ways,
/// answers 503/429 and stalls (ARCHITECTURE §7): whatever A's store took is acknowledged by a
/// retry, B gets every edit exactly once, and both end with the same notes.
@Suite("S3 faults: devices converge through a hostile network")
struct S3FaultConvergenceTests {
    static let faults: [FaultProxy.Fault] = [
        .cutResponse, .respond(status: 503, retryAfter: "0"), .respond(status: 429, retryAfter: nil),
        .stall, .dropRequest, .dropAnswer, .cutHead(keeping: 7), .cutHead(keeping: 40), .holdAnswer,
    ]

    /// Connections closed or held before the answer's head is whole: each stopped the process
    /// through URLSession on Linux (DECISIONS session 11), so none was tested before.
    static let headFaults: [FaultProxy.Fault] = [
        .dropRequest, .dropAnswer, .cutHead(keeping: 7), .cutHead(keeping: 40), .holdAnswer, .stall,
    ]

    static func folder(_ url: String, root: String, timeout: TimeInterval, seal: FolderSeal?) async throws
        -> DirectoryCloudFolder
    {
        let server = try await SeaweedServer.shared.endpoint()
        let endpoint = S3Endpoint(
            url: URL(string: url)!, bucket: server.bucket, region: "us-east-1",
            credentials: .init(accessKeyID: server.accessKey, secretAccessKey: server.secretKey), timeout: timeout)
        return DirectoryCloudFolder(root: root, io: S3FileIO(client: S3Client(endpoint: endpoint)), seal: seal)
    }

    @Test func connectionsClosedBeforeTheAnswerHeadLoseNothingAndDuplicateNothing() async throws {
        let server = try await SeaweedServer.shared.endpoint()
        let proxy = try FaultProxy(upstream: server.url)
        defer { proxy.stop() }
        let root = "/head-faults-\(UUID().uuidString.lowercased())"
        let a = try TestDevice("a", folder: try await Self.folder(proxy.url, root: root, timeout: 2, seal: nil))
        let b = try TestDevice("b", folder: try await Self.folder(server.url, root: root, timeout: 20, seal: nil))
        var bodies: [UUID: String] = [:]
        var edits: [UUID: Int] = [:]
        for (round, fault) in Self.headFaults.enumerated() {
            let id: UUID
            if round % 2 == 0 {
                id = try a.store.create(title: "note \(round)", body: "round \(round)\n").id
            } else {
                id = try #require(bodies.keys.sorted { $0.uuidString < $1.uuidString }.first)
                _ = try a.store.update(id) { $0.body += "round \(round)\n" }
            }
            bodies[id] = try #require(try a.store.note(id)).body
            edits[id, default: 0] += 1
            // On the PUT of the change's log file: the server stored it or never saw it, and A
            // has no answer either way.
            proxy.arm(fault, request: { $0.hasPrefix("PUT ") && $0.contains("/log/") && $0.contains(".json ") })
            _ = await a.engine.syncNow()
            #expect(try a.store.pendingCount() > 0, "round \(round) \(fault): acknowledged without an answer")
            proxy.disarm()
            var attempts = 0
            while try a.store.pendingCount() > 0, attempts < 5 {
                _ = await a.engine.syncNow()
                attempts += 1
            }
            #expect(try a.store.pendingCount() == 0, "round \(round) \(fault): not acknowledged")
        }
        #expect(proxy.firedFaults == Self.headFaults)
        await b.sync()
        for (id, body) in bodies {
            #expect(try b.store.note(id)?.body == body, "\(id)")
            // Every edit once: as many revisions as edits, none published twice.
            #expect(try b.store.history(id).count == edits[id], "\(id)")
        }
        await a.sync()
        #expect(try a.snapshot() == (try b.snapshot()))
    }

    @Test(arguments: FolderKind.allCases)
    func randomFaultsDuringSyncsLoseNothingAndDuplicateNothing(_ kind: FolderKind) async throws {
        let seed = SeededRandom.seed(default: 1414)
        let seal = kind == .encrypted ? TestFolder.testSeal() : nil
        var random = SeededRandom(seed: seed)
        let server = try await SeaweedServer.shared.endpoint()
        let proxy = try FaultProxy(upstream: server.url)
        defer { proxy.stop() }
        let root = "/faults-\(UUID().uuidString.lowercased())"
        let a = try TestDevice("a", folder: try await Self.folder(proxy.url, root: root, timeout: 2, seal: seal))
        let b = try TestDevice("b", folder: try await Self.folder(server.url, root: root, timeout: 20, seal: seal))
        var bodies: [UUID: String] = [:]
        var edits: [UUID: Int] = [:]
        for round in 0..<8 {
            let id: UUID
            if bodies.isEmpty || random.below(3) == 0 {
                id = try a.store.create(title: "note \(round)", body: "round \(round)\n").id
            } else {
                id = bodies.keys.sorted { $0.uuidString < $1.uuidString }[random.below(bodies.count)]
                _ = try a.store.update(id) { $0.body += "round \(round)\n" }
            }
            bodies[id] = try #require(try a.store.note(id)).body
            edits[id, default: 0] += 1
            let fault = Self.faults[random.below(Self.faults.count)]
            // Faults at a random point of the sync: after a few requests went through.
            proxy.arm(fault, times: 1 + random.below(2))
            _ = await a.engine.syncNow()
            proxy.disarm()
            var attempts = 0
            while try a.store.pendingCount() > 0, attempts < 5 {
                _ = await a.engine.syncNow()
                attempts += 1
            }
            #expect(try a.store.pendingCount() == 0, "seed \(seed) round \(round) \(fault): not acknowledged")
        }
        await b.sync()
        for (id, body) in bodies {
            #expect(try b.store.note(id)?.body == body, "seed \(seed): \(id)")
            // Every edit once: as many revisions as edits, none published twice.
            #expect(try b.store.history(id).count == edits[id], "seed \(seed): \(id)")
        }
        await a.sync()
        #expect(try a.snapshot() == (try b.snapshot()), "seed \(seed)")
        #expect(!proxy.firedFaults.isEmpty)
    }
}
