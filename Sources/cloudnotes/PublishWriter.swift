import Foundation
import Glibc
import NotesCore
import NotesPublish
import NotesStore

/// Where a site is written (a folder or a bucket), as three steps: `previous()` reads what the
/// last publish left there, `reusable` says which pages need not be rendered again, and `write`
/// writes the site. The last two are given what `previous()` read, so neither can run without it.
protocol SiteWriter {
    /// What the last publish left: its manifest, and whatever else the target tells.
    associatedtype Previous
    func previous() throws -> Previous
    func reusable(_ previous: Previous) -> [String: String]
    func write(_ site: PublishedSite, previous: Previous) throws -> PublishWriter.Result
}

/// Writes a `PublishedSite` into a folder: only the files whose bytes changed, each under a
/// temporary name renamed into place (no reader sees half a page), then removes the files the
/// previous publish wrote that the site no longer has. The manifest (`PublishManifest`) says
/// which files are ours; a file it does not name is never replaced or removed.
struct PublishWriter: SiteWriter {
    var folder: String
    var store: NoteStore

    struct Result: Equatable {
        var written = 0
        var unchanged = 0
        var removed = 0
    }

    /// Writes `site` over the site `previous` (`previous()`) describes.
    func write(_ site: PublishedSite, previous: PublishManifest?) throws -> Result {
        let fm = FileManager.default
        let ours = Set(previous?.files ?? [])
        for file in site.files where !ours.contains(file.path) && fm.fileExists(atPath: path(file.path)) {
            throw CLIError("\(path(file.path)) exists and publish did not write it; move it away first")
        }
        try Self.makeFolder(folder)
        // Every file this run may leave behind is named before any is written: a publish stopped
        // part-way leaves a folder the next one recognises as its own.
        let current = PublishManifest(files: site.files.map(\.path), fingerprints: site.fingerprints)
        try writeIfChanged(PublishManifest(files: Array(ours.union(current.files))).encoded(), PublishManifest.fileName)
        var result = Result()
        for file in site.files {
            let changed: Bool
            switch file.content {
            case .bytes(let bytes): changed = try writeIfChanged(Data(bytes), file.path)
            case .attachment(let sha256, let size): changed = try writeAttachment(sha256, size, file.path)
            case .kept: changed = false
            }
            if changed { result.written += 1 } else { result.unchanged += 1 }
        }
        for gone in previous?.removed(by: site) ?? [] {
            if unlink(path(gone)) == 0 || errno == ENOENT {
                result.removed += 1
                removeEmptyFolders(above: gone)
            } else {
                throw CLIError("cannot remove \(path(gone)): \(String(cString: strerror(errno)))")
            }
        }
        try writeIfChanged(current.encoded(), PublishManifest.fileName)
        return result
    }

    /// The fingerprints of the pages `previous` wrote that are still in the folder: those a
    /// publish need not render again while their inputs stay (`SiteBuilder.site`'s `unchanged`).
    func reusable(_ previous: PublishManifest?) -> [String: String] {
        (previous?.fingerprints ?? [:]).filter { FileManager.default.fileExists(atPath: path($0.key)) }
    }

    /// The manifest of the publish that wrote the folder; nil for a missing or empty folder.
    /// A folder with other files and no manifest is refused.
    func previous() throws -> PublishManifest? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { throw CLIError("\(folder) is a file; publish needs a folder") }
        if let data = FileManager.default.contents(atPath: path(PublishManifest.fileName)) {
            guard let manifest = PublishManifest.decode(data) else {
                throw CLIError(
                    "\(path(PublishManifest.fileName)) is not a list publish wrote; remove it or pick another folder")
            }
            return manifest
        }
        let contents: [String]
        do {
            contents = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw CLIError("cannot read \(folder): \(Output.reason(error))")
        }
        guard contents.isEmpty else {
            throw CLIError("\(folder) holds files that publish did not write; give an empty or new folder")
        }
        return nil
    }

    func path(_ relative: String) -> String { folder + "/" + relative }

    /// Writes `data` to `relative` unless the file already holds exactly these bytes.
    @discardableResult
    func writeIfChanged(_ data: Data, _ relative: String) throws -> Bool {
        let target = path(relative)
        if let existing = FileManager.default.contents(atPath: target), existing == data { return false }
        try makeParent(of: target)
        let temporary = temporaryPath(for: target)
        do {
            try Self.writeNew(data, to: temporary)
            try rename(temporary, to: target)
        } catch {
            unlink(temporary)
            throw error
        }
        return true
    }

    /// One new file: open, write, close; not fsynced, as `Export.writeNew` (the notes stay in the
    /// store, and the OS writes the files back within seconds).
    static func writeNew(_ data: Data, to path: String) throws {
        let failure = data.withUnsafeBytes { FileDescriptorIO.writeNewFile($0, to: path, mode: 0o644) }
        guard failure == 0 else { throw CLIError("cannot write \(path): \(FileDescriptorIO.reason(failure))") }
    }

    /// Streams an attachment's content from the store unless the file has its SHA-256 already.
    func writeAttachment(_ sha256: String, _ size: Int64, _ relative: String) throws -> Bool {
        let target = path(relative)
        if let existing = try? FileManager.default.attributesOfItem(atPath: target)[.size] as? Int64,
            existing == size, Self.sha256(ofFile: target) == sha256
        {
            return false
        }
        try makeParent(of: target)
        let temporary = temporaryPath(for: target)
        guard FileManager.default.createFile(atPath: temporary, contents: nil) else {
            throw CLIError("cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        do {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
            defer { try? handle.close() }
            let found = try store.readAttachmentContent(sha256: sha256, chunkSize: 1 << 20) { piece in
                try handle.write(contentsOf: Data(piece))
            }
            guard found else { throw CLIError("the content of \(relative) is not on this device") }
            try rename(temporary, to: target)
        } catch {
            unlink(temporary)
            if let error = error as? CLIError { throw error }
            throw CLIError("cannot write \(target): \(Output.reason(error))")
        }
        return true
    }

    /// Lowercase hex SHA-256 of a file's content, read in pieces; nil when it cannot be read.
    static func sha256(ofFile path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hash = ContentHasher()
        while let piece = try? handle.read(upToCount: 1 << 20), !piece.isEmpty { hash.update(piece) }
        return hash.finalize()
    }

    func temporaryPath(for target: String) -> String {
        let url = URL(fileURLWithPath: target)
        return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".publish-\(getpid())"
    }

    func makeParent(of target: String) throws {
        try Self.makeFolder(URL(fileURLWithPath: target).deletingLastPathComponent().path)
    }

    /// A folder of the site, readable by a web server running as another user (a site is for
    /// others to read; `export` keeps its folders to the owner).
    static func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        } catch {
            throw CLIError("cannot create \(path): \(Output.reason(error))")
        }
    }

    func rename(_ from: String, to: String) throws {
        guard Glibc.rename(from, to) == 0 else {
            throw CLIError("cannot write \(to): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the folders of `relative` that are empty now (an attachment folder of a note no
    /// longer published), up to the site's folder.
    func removeEmptyFolders(above relative: String) {
        var parts = relative.split(separator: "/").dropLast()
        while !parts.isEmpty {
            // rmdir removes only an empty folder; a folder still holding files stays.
            guard rmdir(path(parts.joined(separator: "/"))) == 0 else { return }
            parts = parts.dropLast()
        }
    }
}
