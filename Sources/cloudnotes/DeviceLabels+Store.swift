import NotesCore
import NotesStore
import NotesSync

extension DeviceLabels {
    /// The device names sync has learned (`SyncEngineState.deviceNames`) and this device's own
    /// (`deviceName` in the config), for history, conflicts, the resolver and marker lines.
    init(store: NoteStore, deviceName: String) {
        let saved = try? store.engineState().map(SyncEngineState.init(serialized:))
        var names: [String: String] = [:]
        for (id, name) in saved?.deviceNames ?? [:] { names[id.rawValue] = name }
        let this = saved?.deviceID?.rawValue ?? store.deviceID
        names[this] = deviceName
        self.init(names: names, thisDevice: this)
    }
}
