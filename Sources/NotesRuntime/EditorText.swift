import Foundation

/// The text an external editor sees: the title, a blank line, the body.
public enum EditorText {
    public static func compose(title: String, body: String) -> String {
        titleLine(title) + "\n\n" + body
    }

    /// The title on one line: CR and LF (which a synced or imported title may hold) become spaces.
    public static func titleLine(_ title: String) -> String {
        String(String.UnicodeScalarView(title.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
    }

    /// Splits edited text: the first line is the title; one blank line after it is dropped.
    /// Works on scalars, since "\r\n" is one Character and a title may end in "\r".
    public static func split(_ text: String) -> (title: String, body: String) {
        let scalars = text.unicodeScalars
        guard let newline = scalars.firstIndex(of: "\n") else { return (text, "") }
        var rest = scalars[scalars.index(after: newline)...]
        if rest.first == "\n" { rest = rest.dropFirst() }
        return (String(scalars[..<newline]), String(rest))
    }

    /// Creates a 0600 temporary file (O_EXCL) named after the note's id, never its title.
    public static func makeTempFile(contents: String, id: UUID) throws -> String {
        let dir = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(dir)/cloudnotes-\(id.lowercasedString.prefix(8))-XXXXXX.md".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemps($0, 3) } ?? -1 }
        guard fd >= 0 else {
            throw ExternalEdit.Failure(
                message: "cannot create a temporary file in \(dir): \(String(cString: strerror(errno)))")
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fchmod(fd, 0o600)
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(contents.utf8))
            try handle.synchronize()
        } catch {
            throw ExternalEdit.Failure(
                message: "cannot write the temporary file \(path): \(error.localizedDescription)")
        }
        return path
    }

    /// The POSIX reason behind a Foundation file error ("No space left on device").
    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedFailureReason ?? ns.localizedDescription
    }
}
