import NotesCore

/// Settings that follow the person (SYNC-FORMAT "Settings"): one write-once file per write,
/// `private/settings/<dev>-<hlc>.json`; per key, the newest by `(hlc, device)` is in force.
/// Builds before it never list `private/settings/`, so they ignore these files.
extension DirectoryCloudFolder {
    /// The most bytes a setting file may have: a key, a value of at most 64 KB, escaped, and the
    /// envelope (sealed: a little more).
    static let maxSettingFileBytes = 512 << 10

    public func publishSetting(_ setting: SyncedSetting, device: DeviceID) throws {
        try requireContainer()
        // A new container's `private/` comes with its first change or identity: the account's
        // first setting may come before either.
        try io.ensureDirectory(layout.privateDirectory)
        try io.ensureDirectory(layout.settingsDirectory)
        let envelope = Envelope(
            kind: .setting, device: device.rawValue, hlc: setting.hlc, body: Self.settingBody(setting))
        _ = try publishOnce(
            envelope.encoded, at: layout.settingFile(device: device, hlc: setting.hlc), device: device)
    }

    public func settingFiles() throws -> [(device: DeviceID, hlc: HLC)] {
        try requireContainer()
        return try io.listIfPresent(layout.settingsDirectory).compactMap(CloudName.deletedMarker)
    }

    public func readSetting(device: DeviceID, hlc: HLC) throws -> SyncedSetting? {
        try requireContainer()
        let bytes: [UInt8]?
        do {
            bytes = try readOpened(layout.settingFile(device: device, hlc: hlc), maxBytes: Self.maxSettingFileBytes)
        } catch let error as CloudError where error.code == .limitExceeded {
            // Larger than any setting can be: planted or damaged, skipped like any file that
            // does not check out (the caller counts it as read).
            return nil
        }
        guard let bytes,
            case .valid(let envelope) = Envelope.verify(
                bytes, expecting: .init(kind: .setting, device: device.rawValue)),
            envelope.hlc == hlc
        else { return nil }
        return Self.setting(in: envelope)
    }

    /// `{"key": "…", "value": "…"}`, or `{"key": "…", "value": null}` for a removal.
    static func settingBody(_ setting: SyncedSetting) -> JSONValue {
        .object(["key": .string(setting.key), "value": setting.value.map(JSONValue.string) ?? .null])
    }

    /// The setting a `setting` envelope carries; nil when its body is anything else.
    public static func setting(in envelope: Envelope) -> SyncedSetting? {
        guard envelope.kind == .setting, case .object(let body) = envelope.body, body.count == 2,
            let key = body["key"]?.stringValue, !key.isEmpty, key.utf8.count <= 256, let value = body["value"]
        else { return nil }
        let text: String?
        switch value {
        case .null: text = nil
        case .string(let string) where string.utf8.count <= SettingsState.maxValueBytes: text = string
        default: return nil
        }
        return SyncedSetting(key: key, value: text, hlc: envelope.hlc, device: envelope.device)
    }
}
