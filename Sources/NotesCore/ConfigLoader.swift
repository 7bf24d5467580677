import Foundation

/// An unusable config file: names the file, the key and what was expected.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var key: String?
    public var message: String

    public var description: String {
        if let key { return "config \(file): key \"\(key)\": \(message)" }
        return "config \(file): \(message)"
    }
}

/// The configuration in force and where each part of it came from.
public struct LoadedConfig: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        case option(String)
        case environment(String)
        case xdg(String)
        case defaults
        public var path: String? {
            switch self {
            case .option(let p), .environment(let p), .xdg(let p): return p
            case .defaults: return nil
            }
        }
    }

    public var config: AppConfig
    public var source: Source
    /// Keys set by the file; every other key has its default.
    public var keysFromFile: Set<String>
    /// Unknown keys and other things the user should hear about.
    public var warnings: [String]
    /// Settings in force that came from sync or from `config set --here` (keys as `config set`
    /// names them: `theme.accent`), where the file does not set them.
    public var settingOrigins: [String: SettingOrigin] = [:]

    public init(config: AppConfig, source: Source, keysFromFile: Set<String>, warnings: [String]) {
        self.config = config
        self.source = source
        self.keysFromFile = keysFromFile
        self.warnings = warnings
    }
}

/// Where a setting in force came from besides the defaults and the config file.
public enum SettingOrigin: Sendable, Equatable {
    /// Synced: written by `device` at `hlc` (this device's own id when written here).
    case synced(device: String, hlc: HLC)
    /// This device's own (`config set --here`), which wins over the file and the synced value.
    case here
}

/// Finds and reads the config file: `--config`, then `$CLOUDNOTES_CONFIG`, then
/// `$XDG_CONFIG_HOME/cloudnotes/config.json`, else the embedded defaults.
public enum ConfigLoader {
    /// The config in force: the defaults, the synced `settings` over them, the file over those,
    /// and this device's own settings (`--here`) over everything.
    public static func load(
        explicitPath: String?, environment: [String: String], settings: SettingsState?
    ) throws -> LoadedConfig {
        guard let settings else { return try load(explicitPath: explicitPath, environment: environment) }
        var base = AppConfig.defaults(environment: environment)
        var warnings: [String] = []
        var origins: [String: SettingOrigin] = [:]
        for (key, setting) in settings.synced.sorted(by: { $0.key < $1.key }) {
            // Saved searches are settings, not config values (`cloudnotes views`).
            guard let text = setting.value, settings.here[key] == nil, !SettingKeys.isRecordKey(key) else {
                continue
            }
            if applySetting(key, text, to: &base, label: "synced setting", warnings: &warnings) {
                origins[key] = .synced(device: setting.device, hlc: setting.hlc)
            }
        }
        var loaded = try load(explicitPath: explicitPath, environment: environment, defaults: base)
        // The file wins over a synced value: such a key's origin is the file.
        origins = origins.filter { key, _ in
            if key.hasPrefix("theme.") {
                let role = String(key.dropFirst("theme.".count))
                return loaded.config.theme[role] == base.theme[role]
            }
            return !loaded.keysFromFile.contains(key)
        }
        for (key, text) in settings.here.sorted(by: { $0.key < $1.key }) {
            if applySetting(key, text, to: &loaded.config, label: "this device's setting", warnings: &warnings) {
                origins[key] = .here
            }
        }
        loaded.settingOrigins = origins
        loaded.warnings += warnings
        return loaded
    }

    /// Applies one setting (`config set`'s key and text) as the config file's form of it; a key
    /// or value this build does not take (written by a newer one, or damaged) is left out, said.
    static func applySetting(
        _ key: String, _ text: String, to config: inout AppConfig, label: String, warnings: inout [String]
    ) -> Bool {
        // A key this build does not know is a newer version's: kept, unused, unsaid.
        guard let kind = SettingKeys.synced[key] else { return false }
        guard let value = SettingKeys.configValue(text, kind) else {
            warnings.append("\(label) \"\(key)\" = \"\(text)\" is not one this version takes; ignored")
            return false
        }
        let entry = SettingKeys.configEntry(key, value)
        do {
            try apply(entry.key, entry.value, to: &config, file: label, environment: [:], warnings: &warnings)
            return true
        } catch {
            warnings.append("\(label) \"\(key)\" ignored: \((error as? ConfigError)?.message ?? "\(error)")")
            return false
        }
    }

    public static func load(explicitPath: String?, environment: [String: String]) throws -> LoadedConfig {
        try load(
            explicitPath: explicitPath, environment: environment, defaults: AppConfig.defaults(environment: environment)
        )
    }

    static func load(explicitPath: String?, environment: [String: String], defaults: AppConfig) throws -> LoadedConfig {
        let source: LoadedConfig.Source
        let path: String
        if let explicitPath {
            path = expand(explicitPath, environment)
            source = .option(path)
        } else if let env = environment["CLOUDNOTES_CONFIG"], !env.isEmpty {
            path = expand(env, environment)
            source = .environment(path)
        } else {
            // A relative (or empty) XDG_CONFIG_HOME is ignored, as the XDG spec says.
            let configHome =
                environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
                ?? HomeDirectory.path(environment).map { $0 + "/.config" }
            guard let found = configHome.map({ $0 + "/cloudnotes/config.json" }),
                FileManager.default.fileExists(atPath: found)
            else {
                return LoadedConfig(config: defaults, source: .defaults, keysFromFile: [], warnings: [])
            }
            path = found
            source = .xdg(found)
        }
        let data = try read(path)
        var loaded = try parse(data, file: path, defaults: defaults, environment: environment)
        loaded.source = source
        return loaded
    }

    /// The most a config file may hold; a larger one is refused from its size, never read whole.
    public static let maxFileBytes = 1_048_576

    /// The file's bytes: refused when its size (checked first) or what it yields is over the cap.
    static func read(_ path: String) throws -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw ConfigError(file: path, key: nil, message: "the file \(reason)")
        }
        // Closing a file only read loses nothing.
        defer { try? handle.close() }
        func tooLarge(_ size: UInt64) -> ConfigError {
            ConfigError(
                file: path, key: nil,
                message: "the file is \(size) bytes; a config file is at most \(maxFileBytes) bytes (1 MB)")
        }
        // A size that cannot be found (a pipe): the bounded read below still caps it.
        if let size = try? handle.seekToEnd(), size > UInt64(maxFileBytes) { throw tooLarge(size) }
        do {
            try handle.seek(toOffset: 0)
        } catch {
            // A pipe or a terminal cannot seek; the bounded read below still caps it.
        }
        let data: Data
        do {
            data = try handle.read(upToCount: maxFileBytes + 1) ?? Data()
        } catch {
            throw ConfigError(file: path, key: nil, message: "the file cannot be read")
        }
        guard data.count <= maxFileBytes else { throw tooLarge(UInt64(data.count)) }
        return data
    }

    /// Applies a config file's JSON to `defaults`.
    public static func parse(
        _ data: Data, file: String, defaults: AppConfig, environment: [String: String]
    ) throws -> LoadedConfig {
        let root: ConfigJSON
        do {
            root = try JSONDecoder().decode(ConfigJSON.self, from: data)
        } catch {
            throw ConfigError(file: file, key: nil, message: "is not valid JSON (\(error.localizedDescription))")
        }
        guard case .object(let object) = root else {
            throw ConfigError(file: file, key: nil, message: "expected a JSON object at the top level")
        }
        var config = defaults
        var warnings: [String] = []
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            try apply(key, value, to: &config, file: file, environment: environment, warnings: &warnings)
        }
        return LoadedConfig(config: config, source: .defaults, keysFromFile: Set(object.keys), warnings: warnings)
    }

    /// Applies one key of a config file (or a synced setting in the file's form) to `config`,
    /// checking its value as the file's would be checked.
    static func apply(
        _ key: String, _ value: ConfigJSON, to config: inout AppConfig, file: String, environment: [String: String],
        warnings: inout [String]
    ) throws {
        func fail(_ expected: String) -> ConfigError {
            ConfigError(file: file, key: key, message: "expected \(expected), got \(value.summary)")
        }
        switch key {
        case "$schema", "_comment", "//":
            return
        case "dataDirectory":
            guard case .string(let s) = value, !s.isEmpty else { throw fail("a non-empty path") }
            config.dataDirectory = expand(s, environment)
        case "cloudFolder":
            switch value {
            case .null: config.cloudFolder = nil
            case .string(let s) where !s.isEmpty: config.cloudFolder = expand(s, environment)
            default: throw fail("a path, or null for local only")
            }
        case "notesFolder":
            switch value {
            case .null: config.notesFolder = nil
            case .string(let s) where !s.isEmpty: config.notesFolder = expand(s, environment)
            default: throw fail("a path, or null for no notes folder")
            }
        case "deviceName":
            guard case .string(let s) = value, !s.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw fail("a non-empty name")
            }
            config.deviceName = s
        case "conflictStrategy":
            guard case .string(let s) = value, let strategy = ConflictStrategy(rawValue: s) else {
                throw fail("one of " + ConflictStrategy.allCases.map(\.rawValue).joined(separator: ", "))
            }
            config.conflictStrategy = strategy
        case "syncDebounceSeconds":
            guard case .number(let n) = value, n >= 0, n <= 3600 else { throw fail("seconds between 0 and 3600") }
            config.syncDebounceSeconds = n
        case "pollIntervalSeconds":
            guard case .number(let n) = value, n >= 1, n <= 86400 else { throw fail("seconds between 1 and 86400") }
            config.pollIntervalSeconds = n
        case "editor":
            switch value {
            case .null: config.editor = nil
            case .string(let s) where !s.isEmpty: config.editor = s
            default: throw fail("an editor command, or null")
            }
        case "passphraseCommand":
            switch value {
            case .null: config.passphraseCommand = nil
            case .string(let s) where !s.isEmpty: config.passphraseCommand = s
            default: throw fail("a command that prints the passphrase, or null")
            }
        case "maxNoteBytes":
            guard case .number(let n) = value, n >= 1024, n <= Double(1 << 30), n == n.rounded() else {
                throw fail("a whole number of bytes between 1024 and 1073741824 (1 GB)")
            }
            config.maxNoteBytes = Int(n)
        case "autosaveSeconds":
            guard case .number(let n) = value, n >= 0.1, n <= 600 else { throw fail("seconds between 0.1 and 600") }
            config.autosaveSeconds = n
        case "autosaveMaxSeconds":
            guard case .number(let n) = value, n >= 0.1, n <= 600 else { throw fail("seconds between 0.1 and 600") }
            config.autosaveMaxSeconds = n
        case "bodyHashtags":
            guard case .bool(let b) = value else { throw fail("true or false") }
            config.bodyHashtags = b
        case "rememberKey":
            guard case .bool(let b) = value else { throw fail("true or false") }
            config.rememberKey = b
        case "s3":
            guard case .object(let fields) = value else { throw fail("an object of S3 settings") }
            config.s3 = try s3Settings(fields, file: file, warnings: &warnings)
        case "theme":
            guard case .object(let roles) = value else { throw fail("an object of role: colour") }
            for (role, colour) in roles.sorted(by: { $0.key < $1.key }) {
                guard AppConfig.themeRoles.contains(role) else {
                    warnings.append(
                        "\(file): unknown theme role \"theme.\(role)\" (known: \(AppConfig.themeRoles.sorted().joined(separator: ", ")))"
                    )
                    continue
                }
                guard case .string(let c) = colour, AppConfig.colors.contains(c) else {
                    throw ConfigError(
                        file: file, key: "theme.\(role)",
                        message:
                            "expected a colour (\(AppConfig.colors.sorted().joined(separator: ", "))), got \(colour.summary)"
                    )
                }
                config.theme[role] = c
            }
        case _ where AppConfig.retiredKeys.contains(key):
            warnings.append("\(file): key \"\(key)\" is ignored: the app's keys are fixed (press ? in the app)")
        default:
            warnings.append("\(file): unknown key \"\(key)\" is ignored")
        }
    }

    /// The `s3` section. A secret's value is never quoted in an error.
    static func s3Settings(_ fields: [String: ConfigJSON], file: String, warnings: inout [String]) throws
        -> S3Settings
    {
        var settings = S3Settings()
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            guard S3Settings.keys.contains(key) else {
                warnings.append(
                    "\(file): unknown key \"s3.\(key)\" is ignored (known: \(S3Settings.keys.joined(separator: ", ")))")
                continue
            }
            let text: String?
            switch value {
            case .null: text = nil
            case .string(let s) where !s.trimmingCharacters(in: .whitespaces).isEmpty: text = s
            default:
                let got = S3Settings.secretKeys.contains(key) ? "something else" : value.summary
                throw ConfigError(
                    file: file, key: "s3.\(key)", message: "expected a non-empty string or null, got \(got)")
            }
            switch key {
            case "endpoint":
                if let text, !(text.hasPrefix("http://") || text.hasPrefix("https://")) {
                    throw ConfigError(
                        file: file, key: "s3.endpoint", message: "expected an http:// or https:// URL, got \(text)")
                }
                settings.endpoint = text
            case "region": settings.region = text
            case "profile": settings.profile = text
            case "accessKeyId": settings.accessKeyID = text
            case "secretAccessKey": settings.secretAccessKey = text
            case "sessionToken": settings.sessionToken = text
            default:
                if let text, !S3Settings.addressingStyles.contains(text) {
                    throw ConfigError(
                        file: file, key: "s3.addressing", message: "expected path or virtual, got \(text)")
                }
                settings.addressing = text
            }
        }
        return settings
    }

    /// Expands a leading `~` and `$XDG_*`-style variables are left alone: only `~` is special.
    static func expand(_ path: String, _ environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        guard let home = HomeDirectory.path(environment) else { return path }
        return home + path.dropFirst()
    }
}

/// JSON as a config file may hold it: numbers can be fractional.
enum ConfigJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ConfigJSON])
    case object([String: ConfigJSON])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        // Each JSON kind tried in turn: a failed try is "not this kind", the last one throws.
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([ConfigJSON].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: ConfigJSON].self))
        }
    }

    var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return String(b)
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): return "\"\(TerminalSafeText.sanitize(String(s.prefix(40))))\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
