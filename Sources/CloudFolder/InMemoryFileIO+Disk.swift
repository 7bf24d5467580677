import Glibc

extension InMemoryFileIO {
    enum Entry: Equatable {
        case file(inode: Int)
        case directory
        case symlink(target: String)
    }

    struct Inode {
        var data: [UInt8] = []
        /// The data as of the last fsync; nil if never fsynced.
        var synced: [UInt8]?
        /// A size larger than `data` (a sparse file planted by a test).
        var apparentSize: Int64?
    }

    struct Fault {
        var step: FileIOStep
        var errno: Int32
        var pathContains: String?
        var remaining: Int
    }

    /// The simulated disk behind `InMemoryFileIO`, which holds it in a `Mutex`: each method
    /// does what the `InMemoryFileIO` method of the same name says.
    struct Disk {
        private var entries: [String: Entry] = ["/": .directory]
        private var durableEntries: [String: Entry] = ["/": .directory]
        private var inodes: [Int: Inode] = [:]
        private var nextInode = 1
        private var handles: [Int32: (inode: Int, path: String)] = [:]
        private var nextDescriptor: Int32 = 3
        private var faults: [Fault] = []
        private var crashPoint: (step: FileIOStep, pathContains: String?, remaining: Int)?
        private var calls: [FileIOStep: Int] = [:]
        /// Set by a crash: the "process" is dead and every call throws until `restart()`.
        private var crashed: FileIOStep?

        mutating func fail(_ step: FileIOStep, errno: Int32, pathContains: String?, times: Int) {
            faults.append(Fault(step: step, errno: errno, pathContains: pathContains, remaining: times))
        }

        mutating func crash(at step: FileIOStep, pathContains: String?, occurrence: Int) {
            crashPoint = (step, pathContains, occurrence)
        }

        mutating func restart() {
            crashed = nil
        }

        mutating func clearFaults() {
            faults = []
            crashPoint = nil
        }

        mutating func powerLoss() {
            handles = [:]
            crashed = nil
            var survivors: [String: Entry] = ["/": .directory]
            // Shorter paths first, so a parent is decided before its children.
            for path in durableEntries.keys.sorted(by: { $0.count < $1.count }) where path != "/" {
                if survivors[Self.parent(of: path)] == .directory { survivors[path] = durableEntries[path] }
            }
            entries = survivors
            durableEntries = survivors
            var kept: [Int: Inode] = [:]
            for case .file(let id) in survivors.values {
                if var inode = inodes[id] {
                    inode.data = inode.synced ?? []
                    kept[id] = inode
                }
            }
            inodes = kept
        }

        func callCount(_ step: FileIOStep) -> Int {
            calls[step, default: 0]
        }

        mutating func plantDirectory(_ path: String) {
            var prefix = ""
            for component in path.split(separator: "/") {
                prefix += "/" + component
                if entries[prefix] == nil { setDurably(prefix, .directory) }
            }
        }

        mutating func plantFile(_ path: String, _ bytes: [UInt8], apparentSize: Int64?) {
            let id = nextInode
            nextInode += 1
            inodes[id] = Inode(data: bytes, synced: bytes, apparentSize: apparentSize)
            setDurably(path, .file(inode: id))
        }

        mutating func plantSymlink(_ path: String, to target: String) {
            setDurably(path, .symlink(target: target))
        }

        func contents(_ path: String) -> [UInt8]? {
            guard case .file(let id) = entries[path] else { return nil }
            return inodes[id]?.data
        }

        func allPaths() -> [String] {
            entries.keys.sorted()
        }

        mutating func createExclusive(_ path: String) throws -> FileDescriptor {
            try check(.createExclusive, path)
            try requireParentDirectory(path, operation: "create")
            guard entries[path] == nil else { throw CloudError(errno: EEXIST, operation: "create", path: path) }
            let id = nextInode
            nextInode += 1
            inodes[id] = Inode()
            entries[path] = .file(inode: id)
            let fd = nextDescriptor
            nextDescriptor += 1
            handles[fd] = (id, path)
            return FileDescriptor(rawValue: fd)
        }

        mutating func write(_ file: FileDescriptor, _ bytes: [UInt8]) throws {
            let handle = try openHandle(file, .write)
            inodes[handle.inode]?.data += bytes
        }

        mutating func fsync(_ file: FileDescriptor) throws {
            let handle = try openHandle(file, .fsync)
            if let data = inodes[handle.inode]?.data { inodes[handle.inode]?.synced = data }
        }

        mutating func close(_ file: FileDescriptor) throws {
            let path = handles[file.rawValue]?.path
            // A failed close still releases the descriptor, as on Linux.
            defer { handles[file.rawValue] = nil }
            try check(.close, path ?? "")
            guard path != nil else { throw CloudError(errno: EBADF, operation: "close", path: nil) }
        }

        mutating func rename(_ from: String, to: String) throws {
            try check(.rename, to)
            try requireParentDirectory(from, operation: "rename")
            try requireParentDirectory(to, operation: "rename")
            guard let entry = entries[from] else { throw CloudError(errno: ENOENT, operation: "rename", path: from) }
            if entries[to] == .directory { throw CloudError(errno: EISDIR, operation: "rename", path: to) }
            // As `PosixFileIO.rename`: a write-once path is never replaced.
            if entries[to] != nil, !CloudLayout.isRewritable(to) {
                throw CloudError(errno: EEXIST, operation: "rename", path: to)
            }
            guard entry != .directory else { throw CloudError(errno: EXDEV, operation: "rename", path: from) }
            entries[from] = nil
            entries[to] = entry
        }

        mutating func fsyncDirectory(_ path: String) throws {
            try check(.fsyncDirectory, path)
            try requireDirectory(path, operation: "fsync folder")
            for (child, entry) in entries where Self.parent(of: child) == path && child != "/" {
                durableEntries[child] = entry
            }
            for child in durableEntries.keys where Self.parent(of: child) == path && entries[child] == nil {
                durableEntries[child] = nil
            }
        }

        mutating func read(_ path: String, maxBytes: Int) throws -> [UInt8] {
            try check(.read, path)
            try requireParentDirectory(path, operation: "open")
            switch entries[path] {
            case nil: throw CloudError(errno: ENOENT, operation: "open", path: path)
            case .symlink: throw CloudError(errno: ELOOP, operation: "open", path: path)
            case .directory: throw CloudError(.invalidArguments, "not a regular file; refused", path: path)
            case .file(let id):
                let inode = inodes[id] ?? Inode()
                let size = inode.apparentSize ?? Int64(inode.data.count)
                guard size <= maxBytes else {
                    throw CloudError(
                        .limitExceeded, "file is \(size) bytes, over the \(maxBytes)-byte cap; refused without reading",
                        path: path)
                }
                return inode.data
            }
        }

        mutating func list(_ path: String) throws -> [String] {
            try check(.list, path)
            try requireDirectory(path, operation: "list")
            return entries.keys.filter { $0 != "/" && Self.parent(of: $0) == path }.map(Self.lastComponent)
        }

        mutating func kind(_ path: String) throws -> FileKind? {
            try check(.kind, path)
            do {
                try requireParentDirectory(path, operation: "stat")
            } catch let error as CloudError where error.errno == ENOENT {
                return nil
            }
            switch entries[path] {
            case nil: return nil
            case .directory: return .directory
            case .symlink: return .symlink
            case .file(let id):
                let inode = inodes[id] ?? Inode()
                return .regular(size: inode.apparentSize ?? Int64(inode.data.count))
            }
        }

        mutating func makeDirectory(_ path: String) throws {
            try check(.makeDirectory, path)
            try requireParentDirectory(path, operation: "mkdir")
            guard entries[path] == nil else { throw CloudError(errno: EEXIST, operation: "mkdir", path: path) }
            entries[path] = .directory
        }

        mutating func remove(_ path: String) throws {
            try check(.remove, path)
            try requireParentDirectory(path, operation: "remove")
            switch entries[path] {
            case nil: throw CloudError(errno: ENOENT, operation: "remove", path: path)
            case .directory:
                // An empty directory goes, as rmdir(2) removes one.
                guard !entries.keys.contains(where: { $0.hasPrefix(path + "/") }) else {
                    throw CloudError(errno: ENOTEMPTY, operation: "remove", path: path)
                }
                entries[path] = nil
            default: entries[path] = nil
            }
        }

        // MARK: Helpers

        private mutating func check(_ step: FileIOStep, _ path: String) throws {
            calls[step, default: 0] += 1
            if let crashed { throw SimulatedCrash(step: crashed) }
            if let point = crashPoint, point.step == step, point.pathContains.map(path.contains) ?? true {
                if point.remaining <= 1 {
                    crashPoint = nil
                    handles = [:]
                    crashed = step
                    throw SimulatedCrash(step: step)
                }
                crashPoint = (step, point.pathContains, point.remaining - 1)
            }
            if let i = faults.firstIndex(where: { $0.step == step && ($0.pathContains.map(path.contains) ?? true) }) {
                let number = faults[i].errno
                faults[i].remaining -= 1
                if faults[i].remaining <= 0 { faults.remove(at: i) }
                throw CloudError(
                    errno: number, operation: "\(step.rawValue) (injected)", path: path.isEmpty ? nil : path)
            }
        }

        private mutating func openHandle(_ file: FileDescriptor, _ step: FileIOStep) throws -> (
            inode: Int, path: String
        ) {
            let handle = handles[file.rawValue]
            try check(step, handle?.path ?? "")
            guard let handle else { throw CloudError(errno: EBADF, operation: step.rawValue, path: nil) }
            return handle
        }

        private func requireDirectory(_ path: String, operation: String) throws {
            try requireParentDirectory(path, operation: operation)
            switch entries[path] {
            case .directory: return
            case nil: throw CloudError(errno: ENOENT, operation: operation, path: path)
            case .symlink: throw CloudError(errno: ELOOP, operation: operation, path: path)
            case .file: throw CloudError(errno: ENOTDIR, operation: operation, path: path)
            }
        }

        /// Every ancestor must be a directory; a symlink anywhere is `ELOOP` (never followed).
        private func requireParentDirectory(_ path: String, operation: String) throws {
            guard path.hasPrefix("/"), !path.utf8.contains(0) else {
                throw CloudError(errno: EINVAL, operation: operation, path: path)
            }
            var ancestor = Self.parent(of: path)
            var chain: [String] = []
            while ancestor != "/" {
                chain.append(ancestor)
                ancestor = Self.parent(of: ancestor)
            }
            for dir in chain.reversed() {
                switch entries[dir] {
                case .directory: continue
                case nil: throw CloudError(errno: ENOENT, operation: operation, path: path)
                case .symlink: throw CloudError(errno: ELOOP, operation: operation, path: path)
                case .file: throw CloudError(errno: ENOTDIR, operation: operation, path: path)
                }
            }
        }

        private mutating func setDurably(_ path: String, _ entry: Entry) {
            entries[path] = entry
            durableEntries[path] = entry
        }

        static func parent(of path: String) -> String {
            guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
            return String(path[..<slash])
        }

        static func lastComponent(_ path: String) -> String {
            guard let slash = path.lastIndex(of: "/") else { return path }
            return String(path[path.index(after: slash)...])
        }
    }
}
