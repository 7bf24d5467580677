import Foundation

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
                throw CLIError("cannot read \(path): \((error as NSError).localizedFailureReason ?? "\(error.localizedDescription)")")
            }
        }
        return try decode(data, source: path == "-" ? "stdin" : path)
    }

    static func decode(_ data: Data, source: String) throws -> String {
        guard let text = String(validating: data, as: UTF8.self) else {
            let offset = firstInvalidUTF8Offset(data) ?? 0
            throw CLIError("\(source) is not valid UTF-8 (first bad byte at offset \(offset)); nothing was saved")
        }
        return text
    }

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
