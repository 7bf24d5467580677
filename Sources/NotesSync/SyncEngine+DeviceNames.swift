import CloudFolder
import Foundation
import NotesCore

extension SyncEngine {
    /// Learns the names of the devices whose changes this device has read (their `deviceName`,
    /// from `devices/<dev>.json`), so history, conflicts and the resolver can name them
    /// (`DeviceLabels`). A fetch reads the device file only of a writer it has no name for yet
    /// (one read per new device); compaction, which reads every device file anyway, takes
    /// renames.
    func learnDeviceNames(_ folder: any CloudFolder) {
        var names: [DeviceID: String] = [device: configuration.deviceName]
        let writers = Set(state.zones.values.flatMap { $0.token.seqByDevice.keys })
        for id in writers where id != device && state.deviceNames[id] == nil {
            // A device file that cannot be read gives no name: the id is shown instead.
            if let info = try? folder.readDevice(id) { names[id] = info.name }
        }
        remember(names)
    }

    /// Keeps `names` in the state, in memory and as saved (merged into the saved state, which
    /// only ever covers what the store committed, as `rememberFailure` does).
    func remember(_ names: [DeviceID: String]) {
        let changed = names.filter { state.deviceNames[$0.key] != $0.value }
        guard !changed.isEmpty else { return }
        state.deviceNames.merge(changed) { $1 }
        // Device names are a cache for display: a failed read or write keeps them in memory only.
        guard var saved = try? store.engineState().map(SyncEngineState.init(serialized:)) ?? SyncEngineState() else {
            return
        }
        saved.deviceNames.merge(changed) { $1 }
        try? store.saveEngineState(saved.serialized)
    }
}
