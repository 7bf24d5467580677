import NotesCore
import NotesStore
import NotesSync

extension DeviceLabels {
    /// The device names sync has learned (`SyncEngineState.deviceNames`) and this device's own
    /// (`deviceName` in the config), for history, conflicts, the resolver and marker lines:
    /// those of the cloud folder's engine, then those each shared place's engine learned
    /// (other people's devices, "Bo · laptop").
    init(store: NoteStore, deviceName: String) {
        // `try?`: names are for display; a state that cannot be read shows ids instead.
        let saved = try? store.engineState().map(SyncEngineState.init(serialized:))
        var names: [String: String] = [:]
        for shared in (try? store.sharedEngineStates()) ?? [] {
            for (id, name) in (try? SyncEngineState(serialized: shared))?.deviceNames ?? [:] {
                names[id.rawValue] = name
            }
        }
        for (id, name) in saved?.deviceNames ?? [:] { names[id.rawValue] = name }
        let this = saved?.deviceID?.rawValue ?? store.deviceID
        names[this] = deviceName
        self.init(names: names, thisDevice: this)
    }
}
