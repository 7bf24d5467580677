import Foundation
import NotesApp
import NotesCore
import NotesStore
import Synchronization

extension TUI {
    /// What the app calls after another connection committed: the settings in force again, when
    /// the synced or this device's own settings changed since the last look (the config file is
    /// read again then too), with who changed what; nil otherwise (the usual case: a note changed).
    static func settingsReloader(_ context: Context, _ store: NoteStore, configPath: String?)
        -> @Sendable () -> LiveSettings?
    {
        // Unread at start (nil): the first look after a commit only takes the settings as they
        // are, and the next change is compared with them; the app keeps its starting values.
        let held = Mutex(try? store.settingsState())
        let environment = context.environment
        let deviceName = context.config.deviceName
        return {
            // A read that fails now is tried again at the next commit; nothing changes meanwhile.
            guard let now = try? store.settingsState() else { return nil }
            let before = held.withLock { previous in
                defer { previous = now }
                return previous
            }
            guard let before, before.synced != now.synced || before.here != now.here else { return nil }
            // The file may be broken now; the settings stay as they were and the app says why.
            let loaded: LoadedConfig
            do {
                loaded = try ConfigLoader.load(explicitPath: configPath, environment: environment, settings: now)
            } catch {
                return nil
            }
            let changed = now.synced.values.filter { setting in
                before.synced[setting.key] != setting && !SettingKeys.isRecordKey(setting.key)
                    && setting.device != store.deviceID
            }
            var said: String?
            if !changed.isEmpty {
                let labels = DeviceLabels(store: store, deviceName: deviceName)
                let devices = Set(changed.map { labels.label($0.device) }).sorted().joined(separator: ", ")
                said = "Settings changed on \(devices): " + changed.map(\.key).sorted().joined(separator: ", ")
            }
            return liveSettings(loaded.config, environment: environment, said: said)
        }
    }

    /// The config's values the app applies while it runs: at start, and whenever they change.
    static func liveSettings(_ config: AppConfig, environment: [String: String], said: String?) -> LiveSettings {
        LiveSettings(
            theme: Theme(roles: config.theme, noColor: !(environment["NO_COLOR"] ?? "").isEmpty),
            autosaveDelay: .milliseconds(Int((config.autosaveSeconds * 1000).rounded())),
            autosaveMaxWait: .milliseconds(Int((config.autosaveMaxSeconds * 1000).rounded())), said: said)
    }
}
