import Foundation

/// One write of a setting that follows the person (issue 25, SYNC-FORMAT "Settings"): a key's
/// value as text, or nil for a removal (a tombstone), stamped `(hlc, device)` so that the newest
/// write wins everywhere (rule 7's order, never the wall clock).
public struct SyncedSetting: Sendable, Equatable, Codable {
    public var key: String
    /// The value as `config set` takes it (`1.5`, `true`, `askUser`, `red`); nil: removed.
    public var value: String?
    public var hlc: HLC
    /// The device that wrote it; this device's own id until it is published.
    public var device: String

    public init(key: String, value: String?, hlc: HLC, device: String) {
        self.key = key
        self.value = value
        self.hlc = hlc
        self.device = device
    }

    /// Whether this write wins over `other` (rule 7: by stamp, then by device id).
    public func isNewer(than other: SyncedSetting) -> Bool {
        (hlc, device) > (other.hlc, other.device)
    }

    enum CodingKeys: String, CodingKey { case key, value, hlc, device }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        key = try c.decode(String.self, forKey: .key)
        value = try c.decodeIfPresent(String.self, forKey: .value)
        let text = try c.decode(String.self, forKey: .hlc)
        guard let hlc = HLC(text) else {
            throw DecodingError.dataCorruptedError(forKey: .hlc, in: c, debugDescription: "not a stamp: \(text)")
        }
        self.hlc = hlc
        device = try c.decode(String.self, forKey: .device)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key)
        try c.encodeIfPresent(value, forKey: .value)
        try c.encode(hlc.description, forKey: .hlc)
        try c.encode(device, forKey: .device)
    }
}

/// Which settings sync and how their text reads as a config value.
public enum SettingKeys {
    /// How a setting's text becomes a config value (`ConfigLoader.apply` then checks its range).
    public enum Kind: Sendable, Equatable {
        case number, bool, text
    }

    /// The settings that describe the person, not the machine: they sync.
    public static let synced: [String: Kind] = {
        var keys: [String: Kind] = [
            "conflictStrategy": .text, "autosaveSeconds": .number, "autosaveMaxSeconds": .number,
            "bodyHashtags": .bool, "syncDebounceSeconds": .number, "pollIntervalSeconds": .number,
        ]
        for role in AppConfig.themeRoles { keys["theme." + role] = .text }
        return keys
    }()

    /// The settings of this machine alone: set in the config file, never synced.
    public static let deviceOnly: Set<String> = [
        "dataDirectory", "cloudFolder", "s3", "deviceName", "passphraseCommand", "rememberKey", "maxNoteBytes",
        "editor", "notesFolder",
    ]

    /// Saved searches sync as settings: `view.<name>` holds the query.
    public static let viewPrefix = "view."
    /// A saved search marked to notify (`view notify NAME`): `notify.<name>` is `true`, and the
    /// app's status bar counts the changes to it since it was last shown.
    public static let notifyPrefix = "notify."

    /// A shared place this account joined or created on one of its devices (issue 24), for its
    /// other devices to follow: `share.<share id>` holds the place, and after a line break the
    /// zone of the notebook the owner moved into it, when one did.
    public static let sharePrefix = "share."

    /// Whether `key` belongs to a saved search (its query or its notify mark) rather than the config.
    public static func isViewKey(_ key: String) -> Bool {
        key.hasPrefix(viewPrefix) || key.hasPrefix(notifyPrefix)
    }

    /// Whether `key` holds something other than a config value: a saved search or a shared place.
    public static func isRecordKey(_ key: String) -> Bool {
        isViewKey(key) || key.hasPrefix(sharePrefix)
    }
    /// Names a saved search may not have: `cloudnotes view` takes them as its own commands.
    public static let reservedViewNames: Set<String> = ["save", "rm", "run", "watch", "list", "notify"]

    /// Why `name` cannot name a saved search; nil when it can.
    public static func viewNameProblem(_ name: String) -> String? {
        if name.isEmpty || name.utf8.count > 64 { return "a view's name has 1 to 64 bytes" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a view's name has no control characters"
        }
        if name != name.trimmingCharacters(in: .whitespaces) {
            return "a view's name does not start or end with a space"
        }
        if reservedViewNames.contains(name) {
            return "\"\(name)\" is a command of `cloudnotes view`; choose another name"
        }
        return nil
    }

    /// The config value `text` stands for as a setting of kind `kind`; nil when it is not one
    /// (`1.5x` for a number).
    static func configValue(_ text: String, _ kind: Kind) -> ConfigJSON? {
        switch kind {
        case .text: return .string(text)
        case .bool:
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: return nil
            }
        case .number:
            guard let number = Double(text), number.isFinite else { return nil }
            return .number(number)
        }
    }

    /// The config file's form of one synced key: `theme.accent` is `{"theme": {"accent": …}}`.
    static func configEntry(_ key: String, _ value: ConfigJSON) -> (key: String, value: ConfigJSON) {
        guard key.hasPrefix("theme.") else { return (key, value) }
        return ("theme", .object([String(key.dropFirst("theme.".count)): value]))
    }
}

/// Why a setting could not be written.
public struct SettingsError: Error, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// Past CloudKit's limits for its key-value store (`quotaViolation`): nothing written.
        case quotaViolation
        /// Not a key that syncs (a device's own, or unknown), or a value it cannot take.
        case invalid
    }

    public var code: Code
    public var message: String
    public var description: String { message }

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// What a device holds of the synced settings: the newest write of each key, what it wrote and
/// has not published yet, the files it has read, and its own `--here` values. Kept in the store
/// (`sync_state`, key `settings`) as this JSON.
public struct SettingsState: Sendable, Equatable, Codable {
    /// CloudKit's limits for `NSUbiquitousKeyValueStore`.
    public static let maxKeys = 1024
    public static let maxTotalBytes = 1 << 20
    public static let maxValueBytes = 64 << 10

    /// The newest write of each key seen here (removals included, so one does not come back).
    public var synced: [String: SyncedSetting] = [:]
    /// Keys written here and not yet published.
    public var pending: Set<String> = []
    /// The setting files already read (`<dev>-<hlc>`), so a pass reads only new ones.
    public var seen: Set<String> = []
    /// The container the synced values came from; another one replaces them (account change).
    public var container: String?
    /// This device's own values (`config set --here`): they win over the synced ones here only.
    public var here: [String: String] = [:]

    public init() {}

    /// The values in force, by key (removals left out).
    public var values: [String: String] { synced.compactMapValues(\.value) }

    /// The saved searches in force (`view.<name>` settings), by name.
    public var views: [(name: String, query: String)] {
        values.compactMap { key, query in
            key.hasPrefix(SettingKeys.viewPrefix) ? (String(key.dropFirst(SettingKeys.viewPrefix.count)), query) : nil
        }.sorted { $0.name < $1.name }
    }

    /// The saved searches marked to notify (`notify.<name>` with a view of that name), by name.
    public var notifyingViews: [(name: String, query: String)] {
        let values = values
        return views.filter { values[SettingKeys.notifyPrefix + $0.name] == "true" }
    }

    /// Checks `value` for `key` as a setting that syncs: a known key, a value the config accepts
    /// (by `ConfigLoader.apply`'s rules) and the limits. Throws a sentence.
    public static func validate(key: String, value: String?) throws {
        if SettingKeys.deviceOnly.contains(key) || key == "theme" {
            let what =
                key == "theme" ? "set one colour at a time, e.g. theme.accent" : "\(key) belongs to this device alone"
            throw SettingsError(.invalid, "\(what); set it in the config file (`cloudnotes config` shows where)")
        }
        if key.hasPrefix(SettingKeys.notifyPrefix) {
            if let problem = SettingKeys.viewNameProblem(String(key.dropFirst(SettingKeys.notifyPrefix.count))) {
                throw SettingsError(.invalid, problem)
            }
            if let value, value != "true" { throw SettingsError(.invalid, "a view's notify mark is true, or unset") }
            return
        }
        if key.hasPrefix(SettingKeys.sharePrefix) {
            let share = key.dropFirst(SettingKeys.sharePrefix.count)
            guard (1...64).contains(share.utf8.count), share.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
                throw SettingsError(.invalid, "a shared place's setting is named by its share id")
            }
            if let value, value.isEmpty || value.utf8.count > 4096 {
                throw SettingsError(.invalid, "a shared place's setting holds 1 to 4096 bytes")
            }
            return
        }
        if key.hasPrefix(SettingKeys.viewPrefix) {
            if let problem = SettingKeys.viewNameProblem(String(key.dropFirst(SettingKeys.viewPrefix.count))) {
                throw SettingsError(.invalid, problem)
            }
            if let value, value.trimmingCharacters(in: .whitespaces).isEmpty || value.utf8.count > 4096 {
                throw SettingsError(.invalid, "a view's query has 1 to 4096 bytes")
            }
            return
        }
        guard let kind = SettingKeys.synced[key] else {
            let known = SettingKeys.synced.keys.sorted().joined(separator: ", ")
            throw SettingsError(.invalid, "unknown setting \"\(key)\" (settings that sync: \(known))")
        }
        guard let value else { return }
        guard value.utf8.count <= maxValueBytes else {
            throw SettingsError(
                .quotaViolation,
                "quota exceeded: a setting's value is at most \(maxValueBytes) bytes (64 KB); \(key) was not changed")
        }
        guard let config = SettingKeys.configValue(value, kind) else {
            let expected = kind == .bool ? "true or false" : "a number"
            throw SettingsError(.invalid, "\(key) takes \(expected), not \"\(value)\"")
        }
        var scratch = AppConfig.defaults(environment: [:], home: nil)
        var warnings: [String] = []
        let entry = SettingKeys.configEntry(key, config)
        do {
            try ConfigLoader.apply(
                entry.key, entry.value, to: &scratch, file: "setting", environment: [:], warnings: &warnings)
        } catch let error as ConfigError {
            throw SettingsError(.invalid, "\(key): \(error.message)")
        }
    }

    /// Writes `value` (nil: removes the key) as this device's newest write, to be published;
    /// refused, with nothing changed, past the limits.
    public mutating func set(_ key: String, _ value: String?, hlc: HLC, device: String) throws {
        try Self.validate(key: key, value: value)
        var next = self
        next.synced[key] = SyncedSetting(key: key, value: value, hlc: hlc, device: device)
        next.pending.insert(key)
        try next.checkLimits(changing: key)
        self = next
    }

    /// CloudKit's limits over the values in force: 1,024 keys and 1 MB of keys and values.
    func checkLimits(changing key: String) throws {
        let values = self.values
        if values.count > Self.maxKeys {
            throw SettingsError(
                .quotaViolation,
                "quota exceeded: at most \(Self.maxKeys) settings sync; \(key) was not changed (remove one first)")
        }
        let total = values.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        if total > Self.maxTotalBytes {
            throw SettingsError(
                .quotaViolation,
                "quota exceeded: synced settings hold at most 1 MB in all; \(key) was not changed")
        }
    }

    /// Takes a write read from the cloud when it is newer than the one held for its key (a
    /// pending one of ours it beats is dropped: it would lose everywhere). True when it changed
    /// the values in force.
    @discardableResult
    public mutating func receive(_ setting: SyncedSetting) -> Bool {
        if let held = synced[setting.key], !setting.isNewer(than: held) { return false }
        let before = synced[setting.key]?.value
        synced[setting.key] = setting
        pending.remove(setting.key)
        return before != setting.value
    }

    /// The synced values came from `containerID`; from another one (the data directory was bound
    /// to another cloud) they are replaced by what that one holds, keeping what was set here and
    /// not sent yet.
    public mutating func adopt(container containerID: String) {
        guard container != containerID else { return }
        if container != nil {
            synced = synced.filter { pending.contains($0.key) }
            seen = []
        }
        container = containerID
    }

    /// Everything held goes out again (a new place: encrypted in place, restored).
    public mutating func requeue() {
        pending = Set(synced.keys)
    }

    /// The file name (`<dev>-<hlc>`) of a setting write.
    public static func fileName(device: String, hlc: HLC) -> String { "\(device)-\(hlc)" }
}
