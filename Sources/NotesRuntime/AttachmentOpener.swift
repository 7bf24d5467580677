import Foundation
import NotesCore
import NotesStore

/// Opens an attachment with the desktop's program (`Effect.openAttachment`): a copy (a hard
/// link when it can) named as the attachment, in a private temporary folder, so the program
/// sees the file's real name and the stored content cannot be changed through it.
enum AttachmentOpener {
    /// `$OPENER` (a command line; the path is appended), else `xdg-open`.
    static func command(_ environment: [String: String]) -> String {
        if let opener = environment["OPENER"], !opener.trimmingCharacters(in: .whitespaces).isEmpty { return opener }
        return "xdg-open"
    }

    /// The program a command line starts (its first word), found as the shell would on
    /// `PATH`; nil when there is none, so the app never says "Opened" when nothing opened.
    static func program(of command: String, environment: [String: String]) -> String? {
        guard let first = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) else {
            return nil
        }
        if first.contains("/") { return FileManager.default.isExecutableFile(atPath: first) ? first : nil }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(first)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    static func open(_ store: NoteStore, name: String, sha256: String, environment: [String: String]) throws {
        guard Attachment.nameProblem(name) == nil else { throw RuntimeError("“\(name)” cannot be a file name") }
        let source = store.attachmentContentPath(sha256)
        guard FileManager.default.fileExists(atPath: source) else {
            throw RuntimeError("“\(name)” has not arrived on this device yet; sync and try again")
        }
        let opener = command(environment)
        guard program(of: opener, environment: environment) != nil else {
            throw RuntimeError(
                environment["OPENER"] == nil
                    ? "nothing here opens attachments: install xdg-open (xdg-utils) or set $OPENER"
                    : "$OPENER does not name a program on this PATH: \(TerminalSafeText.sanitize(opener))")
        }
        let folder =
            NSTemporaryDirectory() + "/cloudnotes-\(getuid())/open/\(sha256.prefix(16))"
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let target = folder + "/" + name
            if !FileManager.default.fileExists(atPath: target), link(source, target) != 0 {
                try FileManager.default.copyItem(atPath: source, toPath: target)
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            // The path is an argument of the shell, never part of the command text.
            process.arguments = ["-c", command(environment) + " \"$1\"", "cloudnotes-open", target]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        } catch let error as RuntimeError {
            throw error
        } catch {
            throw RuntimeError("cannot open “\(name)”: \(error.localizedDescription)")
        }
    }
}
