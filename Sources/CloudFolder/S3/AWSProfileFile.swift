import Foundation

/// The INI files of the AWS tools, `~/.aws/credentials` and `~/.aws/config`, as far as an S3
/// location needs them (DECISIONS session 12): `[section]` headers, `key = value` lines, full-line
/// `#`/`;` comments, and indented sub-keys under a key with no value (`s3 =` then
/// `  addressing_style = virtual`, read as `s3.addressing_style`). Keys are lowercased; a value
/// is everything after the first `=`, trimmed (no inline comments, as the AWS tools read it).
///
/// The files are the user's, but they are bytes from disk: anything at all parses to some
/// sections (lines that mean nothing are skipped), never a crash.
public struct AWSProfileFile: Sendable, Equatable {
    /// Section name (inner whitespace collapsed: `profile work`) → key → value.
    public var sections: [String: [String: String]] = [:]

    /// The most of a file read: a larger one is cut there.
    public static let maxBytes = 1 << 20

    public init(sections: [String: [String: String]] = [:]) { self.sections = sections }

    public init(parsing bytes: [UInt8]) {
        let text = String(decoding: bytes.prefix(Self.maxBytes), as: UTF8.self)
        var section: String?
        var parent: String?
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            if trimmed.hasPrefix("[") {
                parent = nil
                guard trimmed.hasSuffix("]"), trimmed.count >= 2 else {
                    // A broken header: what follows belongs to no section until the next one.
                    section = nil
                    continue
                }
                let name = trimmed.dropFirst().dropLast().split(whereSeparator: \.isWhitespace).joined(separator: " ")
                section = name
                if sections[name] == nil { sections[name] = [:] }
                continue
            }
            guard let current = section, let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { continue }
            let indented = line.first?.isWhitespace == true
            if indented, let parent {
                sections[current, default: [:]][parent + "." + key] = value
                continue
            }
            sections[current, default: [:]][key] = value
            parent = value.isEmpty ? key : nil
        }
    }

    /// A profile of the config file: `[profile NAME]`, or `[default]` (or `[profile default]`).
    public func configProfile(_ name: String) -> [String: String]? {
        if name == "default" { return sections["default"] ?? sections["profile default"] }
        return sections["profile " + name]
    }

    /// A profile of the credentials file: `[NAME]`.
    public func credentialsProfile(_ name: String) -> [String: String]? { sections[name] }
}
