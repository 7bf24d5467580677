import CloudFolder
import Foundation
import NotesCore

/// Where the cloud folder is: a local directory, or `s3://BUCKET/PREFIX` (SYNC-FORMAT "On S3").
/// A URL is never taken for a path: an unknown scheme is refused, not created as a folder.
struct CloudLocation {
    /// What is bound and shown: the absolute path, or the `s3://` URL (never a secret).
    let name: String
    /// The folder's root as `DirectoryCloudFolder` sees it.
    let root: String
    let io: any FileIO
    /// True for a bucket: no local folder to create, no inotify watcher (the poll notices).
    let isRemote: Bool

    /// The location `text` names; S3 settings come from the AWS environment variables, then the
    /// config's `s3` section, then the `~/.aws` profile (`S3Endpoint.resolve`).
    static func resolve(_ text: String, environment: [String: String], s3 settings: S3Settings) throws
        -> CloudLocation
    {
        if let (bucket, prefix) = try s3(text) {
            let endpoint: S3Endpoint
            do {
                endpoint = try S3Endpoint.resolve(bucket: bucket, environment: environment, settings: settings)
            } catch let error as CloudError {
                throw CLIError(error.message)
            }
            let name = "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)")
            return CloudLocation(
                name: name, root: "/" + prefix, io: S3FileIO(client: S3Client(endpoint: endpoint)), isRemote: true)
        }
        let absolute = URL(fileURLWithPath: text).standardizedFileURL.path
        return CloudLocation(name: absolute, root: absolute, io: PosixFileIO(), isRemote: false)
    }

    /// The bucket and prefix of an `s3://` URL; nil for a path; throws for another URL.
    static func s3(_ text: String) throws -> (bucket: String, prefix: String)? {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "s3" else {
            if scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) {
                throw CLIError(
                    "\(text) is a URL of a kind the cloud folder cannot be (only a path or s3://BUCKET/PREFIX)")
            }
            return nil
        }
        let rest = text[schemeEnd.upperBound...].split(separator: "/", omittingEmptySubsequences: true)
        guard let bucket = rest.first, !bucket.isEmpty else {
            throw CLIError("\(text) names no bucket: write s3://BUCKET/PREFIX")
        }
        let prefix = rest.dropFirst().joined(separator: "/")
        guard !prefix.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) else {
            throw CLIError("\(text): a prefix may not hold . or .. components")
        }
        return (String(bucket), prefix)
    }

    /// The name `resolve` would give `text` (`s3://BUCKET/PREFIX` or an absolute path), without
    /// resolving an endpoint; `text` itself when it is a URL of another kind.
    static func normalizedName(_ text: String) -> String {
        do {
            if let (bucket, prefix) = try s3(text) { return "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)") }
        } catch {
            return text
        }
        return URL(fileURLWithPath: text).standardizedFileURL.path
    }

    /// Whether `text` is a URL rather than a path.
    static func isURL(_ text: String) -> Bool {
        do {
            return try s3(text) != nil
        } catch {
            return true
        }
    }

    /// The folder over this location, sealed when `seal` is given (SYNC-FORMAT rule 14).
    func folder(seal: FolderSeal? = nil) -> DirectoryCloudFolder {
        DirectoryCloudFolder(root: root, io: io, seal: seal)
    }
}
