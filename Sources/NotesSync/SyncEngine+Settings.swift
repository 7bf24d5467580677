import CloudFolder
import Foundation
import NotesCore

/// Settings that follow the person (SYNC-FORMAT "Settings"): read after the zones, then what
/// was set here goes out, so a new device takes the synced values before it writes its own.
extension SyncEngine {
    /// How often a running engine looks for settings written elsewhere, in ms.
    static let settingsCheckInterval: Int64 = 60_000

    /// Reads the setting files not read yet, keeps the newest write of each key, then publishes
    /// the writes made here that still stand. Returns the keys another device changed.
    func exchangeSettings(_ folder: any CloudFolder) throws -> [String] {
        guard let containerID = state.containerID else { return [] }
        let held = try store.settingsState()
        // On a bucket, one listing a minute, not one a pass (an idle bucket's cost): the first
        // pass of an engine and any pass with a setting written here look at once. A folder on
        // disk is listed every pass, so a running app takes a setting as soon as it arrives.
        let now = configuration.now().millisecondsSince1970
        if folder.listingsAreRequests, let last = lastSettingsCheck, now - last < Self.settingsCheckInterval,
            held.pending.isEmpty, held.container == containerID
        {
            return []
        }
        lastSettingsCheck = now
        let files = try folder.settingFiles()
        let unread = files.filter {
            !held.seen.contains(SettingsState.fileName(device: $0.device.rawValue, hlc: $0.hlc))
        }
        var received: [(name: String, setting: SyncedSetting?)] = []
        for file in unread {
            received.append(
                (
                    SettingsState.fileName(device: file.device.rawValue, hlc: file.hlc),
                    try folder.readSetting(device: file.device, hlc: file.hlc)
                ))
        }
        let device = self.device
        let (changed, toPublish) = try store.updateSettings { settings in
            settings.adopt(container: containerID)
            var changed: [SyncedSetting] = []
            for (name, setting) in received {
                // A file that does not check out may not have fully arrived: read it again later.
                guard let setting else { continue }
                settings.seen.insert(name)
                if settings.receive(setting) { changed.append(setting) }
            }
            let toPublish = settings.pending.sorted().compactMap { settings.synced[$0] }
            return (changed, toPublish)
        }
        for setting in changed {
            let value = setting.value.map { "\"\($0)\"" } ?? "removed"
            emit(.settingChanged(key: setting.key, value: setting.value, device: setting.device))
            logger.info("setting \(setting.key) \(value) by device \(setting.device)")
        }
        for var setting in toPublish {
            setting.device = device.rawValue
            try folder.publishSetting(setting, device: device)
            try store.updateSettings { settings in
                // Published as it stands, unless it was written again meanwhile.
                guard settings.synced[setting.key]?.hlc == setting.hlc else { return }
                settings.synced[setting.key] = setting
                settings.pending.remove(setting.key)
                settings.seen.insert(SettingsState.fileName(device: device.rawValue, hlc: setting.hlc))
            }
        }
        return Set(changed.map(\.key)).sorted()
    }
}
