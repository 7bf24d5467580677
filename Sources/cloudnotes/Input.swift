import Foundation
import Glibc

/// Reading note text from options, files and stdin; text must be valid UTF-8.
enum Input {
    /// The body from `--body`, `--file` (`-` is stdin), or stdin when it is piped; nil if none given.
    static func body(option: String?, file: String?) throws -> String? {
        if option != nil && file != nil { throw CLIError("give the body with --body or --file, not both") }
        if let option { return option }
        if let file { return try read(file) }
        if !Output.stdinIsTerminal { return try read("-") }
        return nil
    }

    /// Reads a file (or stdin for "-") as UTF-8, refusing anything else.
    static func read(_ path: String) throws -> String {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw CLIError(
                    "cannot read \(path): \((error as NSError).localizedFailureReason ?? "\(error.localizedDescription)")"
                )
            }
        }
        return try decode(data, source: path == "-" ? "stdin" : path)
    }

    /// Reads a file an import found inside a folder as UTF-8, without following a symbolic link
    /// (`O_NOFOLLOW`): a file swapped for a link after the folder was scanned is refused, not
    /// read from wherever it leads. Only regular files (a FIFO would block the read).
    static func readInFolder(_ path: String) throws -> String {
        let handle = FileHandle(fileDescriptor: try openForImport(path, inFolder: true), closeOnDealloc: true)
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw CLIError(
                "cannot read \(path): \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
        }
        return try decode(data, source: path)
    }

    /// Opens a file an import reads: one found in a folder as `readInFolder` reads it (no link
    /// followed, regular files only), one named on the command line as given. The caller closes it.
    static func openForImport(_ path: String, inFolder: Bool) throws -> Int32 {
        // In a folder no link is followed and only a regular file is read: a FIFO would block.
        let fd = open(path, O_RDONLY | O_CLOEXEC | (inFolder ? O_NOFOLLOW | O_NONBLOCK : 0))
        guard fd >= 0 else {
            let reason =
                errno == ELOOP && inFolder
                ? "it is a symbolic link, which import does not follow" : String(cString: strerror(errno))
            throw CLIError("cannot read \(path): \(reason)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG || !inFolder else {
            close(fd)
            throw CLIError("cannot read \(path): not a regular file")
        }
        return fd
    }

    /// Refuses command-line arguments that are not UTF-8: Swift would quietly replace the bad bytes
    /// with U+FFFD, and a note would be saved with text the user never typed.
    static func checkArguments() throws {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument))
            // Checked in place; only a bad argument is copied into `Data` (whose generic init
            // costs dynamic casts on every start) for `decode`'s message. A C string holds no NUL.
            if String(validating: bytes, as: UTF8.self) != nil { continue }
            let previous = index > 1 ? CommandLine.arguments[index - 1] : ""
            _ = try decode(
                Data(bytes), source: "argument \(index)" + (previous.hasPrefix("-") ? " (after \(previous))" : ""))
        }
    }

    static func decode(_ data: Data, source: String) throws -> String {
        guard let text = String(validating: data, as: UTF8.self) else {
            let offset = firstInvalidUTF8Offset(data) ?? 0
            throw CLIError("\(source) is not valid UTF-8 (first bad byte at offset \(offset)); nothing was saved")
        }
        try refuseNUL(text, source: source)
        return text
    }

    /// Notes are text: a NUL byte would be cut off silently by SQLite's C strings, so it is refused.
    static func refuseNUL(_ text: String, source: String) throws {
        guard let nul = text.utf8.firstIndex(of: 0) else { return }
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: nul)
        throw CLIError(
            "\(source) contains a NUL byte (at offset \(offset)), which a note cannot hold; nothing was saved")
    }

    /// Whether `text` holds a NUL byte.
    static func containsNUL(_ text: String) -> Bool { text.utf8Contains(0) }

    static func firstInvalidUTF8Offset(_ data: Data) -> Int? {
        let bytes = [UInt8](data)
        var i = 0
        while i < bytes.count {
            var end = min(bytes.count, i + 4)
            var ok = false
            while end > i {
                if String(validating: bytes[i..<end], as: UTF8.self) != nil {
                    ok = true
                    break
                }
                end -= 1
            }
            if !ok { return i }
            i = end
        }
        return nil
    }
}
