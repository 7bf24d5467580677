import Foundation
import GRDB
import NotesCore

/// The settings that follow the person (issue 25): `SettingsState` as JSON in `sync_state`, read
/// and changed in one transaction, so `config set` and a sync pass never lose each other's write.
extension NoteStore {
    /// The `sync_state` key of the settings.
    static let settingsKey = "settings"

    /// The settings held here (empty before the first `config set` or sync).
    public func settingsState() throws -> SettingsState {
        try read { db in try Self.settingsState(db) }
    }

    /// Changes the settings in one write transaction and returns what `change` returned; when
    /// it throws, nothing is written.
    @discardableResult
    public func updateSettings<T>(_ change: (inout SettingsState) throws -> T) throws -> T {
        try write { db in
            var state = try Self.settingsState(db)
            let result = try change(&state)
            try Self.setSyncValue(Self.settingsKey, try Self.encodedSettings(state), db)
            return result
        }
    }

    /// `config set` (a value) and `config unset` (nil): a synced write stamped above every stamp
    /// this store has made, to be published by the next sync; with `here`, this device's own
    /// value instead, which never leaves it. Refused, with nothing written, when the key does not
    /// sync, the value is not one it takes, or the limits would be passed.
    public func writeSetting(_ key: String, _ value: String?, here: Bool) throws {
        try SettingsState.validate(key: key, value: value)
        try write { db in
            var state = try Self.settingsState(db)
            if here {
                state.here[key] = value
            } else {
                // Stamped above every setting write held here, so a write made after seeing
                // another one wins over it everywhere (rule 7), whatever this device's clock says.
                var clock = try hybridLogicalClock(db)
                if let newest = state.synced.values.map(\.hlc).max() {
                    clock.receive(newest, now: self.clock().millisecondsSince1970)
                }
                let stamp = clock.tick(now: self.clock().millisecondsSince1970)
                try persist(stamp, db)
                try state.set(key, value, hlc: stamp, device: deviceID)
            }
            try Self.setSyncValue(Self.settingsKey, try Self.encodedSettings(state), db)
        }
    }

    /// The settings of the store in `directory`, read without opening it for writing (the config
    /// every command loads); nil when there is no store there yet.
    public static func storedSettings(directory: URL) throws -> SettingsState? {
        let path = directory.appendingPathComponent(databaseFileName).path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(2)
        let queue = try DatabaseQueue(path: path, configuration: config)
        return try queue.read { db in
            guard try db.tableExists("sync_state") else { return nil }
            return try settingsState(db)
        }
    }

    static func settingsState(_ db: Database) throws -> SettingsState {
        guard let text = try syncValue(settingsKey, db) else { return SettingsState() }
        do {
            return try JSONDecoder().decode(SettingsState.self, from: Data(text.utf8))
        } catch {
            throw StoreError(
                .corrupt, "the synced settings in \(databaseFileName) do not read back (\(error.localizedDescription))")
        }
    }

    static func encodedSettings(_ state: SettingsState) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(state), as: UTF8.self)
    }
}
