/// Following a container's forward pointers (`moved.json`, `ForwardPointer`) from the place a
/// device is bound to, to the place the container lives now (SYNC-FORMAT "Moving").
///
/// Every hop is checked: a pointer must check out, the place it names must not have been
/// visited (a loop is refused, never walked forever), and the end must hold the same container
/// (`container.json` with the same id) and no pointer of its own that checks out. A pointer that
/// does not check out is never followed: the chain ends before it, and the caller says so.
public enum ForwardChain {
    /// The most hops followed; a longer chain is refused.
    public static let maxHops = 16

    /// Where the chain ends.
    public struct End: Sendable {
        /// The places after the start, in order; empty when the container has not moved.
        public var places: [String]
        /// The folder at the last of them (the start when `places` is empty).
        public var folder: DirectoryCloudFolder
        /// A pointer that does not check out at the end, not followed: which place and why.
        public var ignored: String?
    }

    /// Follows the pointers from `start` (named `name`) for container `containerID`; `open`
    /// makes the folder at a place (with the same seal: a moved container keeps its key). Throws
    /// `badContainer`, in words naming the places, for a loop, a chain longer than `maxHops`, a
    /// place that cannot be opened or an end that does not hold the container.
    public static func follow(
        from start: DirectoryCloudFolder, name: String, containerID: String,
        open: (String) throws -> DirectoryCloudFolder
    ) throws -> End {
        var visited = [name]
        var folder = start
        while true {
            let here = visited[visited.count - 1]
            switch folder.readForwardPointer(containerID: containerID) {
            case .none:
                return try checked(End(places: Array(visited.dropFirst()), folder: folder), containerID, visited)
            case .refused(let reason):
                let ignored = "\(here)/\(DirectoryCloudFolder.movedFileName) is not followed: \(reason)"
                return try checked(
                    End(places: Array(visited.dropFirst()), folder: folder, ignored: ignored), containerID, visited)
            case .valid(let pointer):
                if visited.contains(pointer.place) {
                    throw CloudError(
                        .badContainer,
                        "the cloud folder's forward pointers (moved.json) form a loop: "
                            + (visited + [pointer.place]).joined(separator: " → ")
                            + "; none was followed and nothing was synced")
                }
                guard visited.count <= maxHops else {
                    throw CloudError(
                        .badContainer,
                        "the cloud folder's forward pointers (moved.json) go on for more than \(maxHops) places "
                            + "from \(name); none was followed and nothing was synced")
                }
                do {
                    folder = try open(pointer.place)
                } catch {
                    throw CloudError(
                        .badContainer,
                        "\(here)/moved.json points to \(pointer.place), which cannot be opened "
                            + "(\(CloudError.sentence(for: error))); it was not followed")
                }
                visited.append(pointer.place)
            }
        }
    }

    /// The end, once its container is checked (the start is not: the engine checks it as usual).
    static func checked(_ end: End, _ containerID: String, _ visited: [String]) throws -> End {
        guard let place = end.places.last else { return end }
        let found: String
        do {
            found = try end.folder.readContainer(boundTo: nil).containerID
        } catch let error as CloudError {
            throw CloudError(
                .badContainer,
                "moved.json points to \(place), which holds no cloud folder (\(error.message)); it was not followed "
                    + "(\(visited.joined(separator: " → ")))")
        }
        guard found == containerID else {
            throw CloudError(
                .badContainer,
                "moved.json points to \(place), which holds another account (container \(found)); it was not followed")
        }
        return end
    }
}
