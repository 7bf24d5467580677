import Foundation

/// A server that crashes and comes back: `crash` is `kill -9` of weed's process group (no
/// shutdown of its own, as in a power cut of the process), `restart` runs it again on the same
/// ports over the same data folder, so clients reach it at the same endpoint.
extension SeaweedServer {
    /// Kills the running server's process group with SIGKILL and waits (at most 120 s: once, in a
    /// clean-clone CI run beside the other S3 suites, 30 s were not enough) until nothing listens
    /// on its ports.
    public func crash() async throws {
        guard group > 0, ports.count > 6 else { throw SeaweedError(message: "no SeaweedFS of this instance runs") }
        let killed = group
        _ = kill(-killed, SIGKILL)
        group = 0
        seaweedGroups.remove(killed)
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if ports.allSatisfy(Self.nothingListens) { return }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        throw SeaweedError(message: "SeaweedFS (process group \(killed)) still listened 120 s after SIGKILL")
    }

    /// Whether a connection to `port` on 127.0.0.1 is refused. (Not whether it can be bound: a
    /// socket in TIME_WAIT or another test's client socket can hold the port without listening.)
    static func nothingListens(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return !connectLoopback(fd, port: port) && errno == ECONNREFUSED
    }

    /// Starts the killed server again on its ports over its data folder (waits up to 60 s for it
    /// to answer) and returns the same endpoint. For some seconds after, requests may still get
    /// 500 InternalError (its volume server registering again), as after any restart: clients
    /// retry.
    public func restart() async throws -> Endpoint {
        guard group == 0, let dir, let current else {
            throw SeaweedError(message: "restart needs a server of this instance, killed")
        }
        try await launch(weed: try Self.binary(implementation), dir: dir, ports: ports, endpoint: current)
        return current
    }

    /// Kills the server for good (its folder stays in the temp folder for a look).
    public func stop() {
        guard group > 0 else { return }
        _ = kill(-group, SIGKILL)
        seaweedGroups.remove(group)
        group = 0
    }
}
