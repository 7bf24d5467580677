import CloudFolder
import Foundation
import NotesCore
import NotesTestSupport
import Testing

/// Where a scenario's cloud folder lives. The scenario suites take it as an argument beside
/// `FolderKind`, so one scenario runs over a folder in memory or on disk and over an S3 bucket
/// (SeaweedFS on loopback, SYNC-FORMAT "On S3") alike, plain and encrypted.
enum FolderBackend: String, CaseIterable, CustomTestStringConvertible {
    case memory, disk, s3
    var testDescription: String { rawValue }

    /// A fresh folder of this backend (a new temp directory, a new bucket prefix).
    func folder(_ kind: FolderKind = .plain) async throws -> DirectoryCloudFolder {
        let encrypted = kind == .encrypted
        switch self {
        case .memory: return TestFolder.memory(encrypted: encrypted).0
        case .disk: return try TestFolder.disk(encrypted: encrypted)
        case .s3: return try await TestFolder.s3(encrypted: encrypted)
        }
    }

    /// Devices "a", "b", … over one fresh folder of this backend.
    func devices(_ count: Int, _ kind: FolderKind = .plain) async throws -> (DirectoryCloudFolder, [TestDevice]) {
        let folder = try await folder(kind)
        return (folder, try ["a", "b", "c", "d"].prefix(count).map { try TestDevice($0, folder: folder) })
    }
}

extension DirectoryCloudFolder {
    /// Every file under the folder with its bytes, walked through its `FileIO` (a directory, an
    /// in-memory folder or a bucket alike).
    func allFiles() throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        func walk(_ path: String) throws {
            for name in try io.list(path) {
                let child = path + "/" + name
                switch try io.kind(child) {
                case .directory: try walk(child)
                case .regular: files[child] = try io.read(child, maxBytes: 64 << 20)
                default: break
                }
            }
        }
        try walk(layout.root)
        return files
    }

    /// Every log file of a device (in any zone), by seq, with its bytes.
    func logFiles(of device: DeviceID) throws -> [Int64: [UInt8]] {
        var files: [Int64: [UInt8]] = [:]
        for (path, bytes) in try allFiles() where path.contains("/log/\(device)/") {
            let name = String(path[path.index(after: path.lastIndex(of: "/")!)...])
            if let seq = CloudName.logFile(name) { files[seq] = bytes }
        }
        return files
    }
}
