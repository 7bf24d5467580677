import CloudFolder
import Foundation
import NotesCore

/// `sync init` (SYNC-FORMAT rule 12, "Joining"): binding a data directory to a cloud folder.
extension SyncEngine {
    /// Opens the folder's container (creating it when the folder is empty and `createsContainer`)
    /// and then, in one store transaction, binds the data directory to `path` and saves the
    /// container id in the engine state. Every step before that transaction touches only the
    /// cloud folder, so a failure or a kill at any step leaves the data directory exactly as it
    /// was (a container created on the way is simply joined next time). Returns the container id.
    ///
    /// A data directory whose state already names a container may join only a folder holding
    /// that container (which also repairs a data directory an interrupted older `init` left with
    /// a container id and no binding); another container is `badContainer`.
    @discardableResult
    public static func join(
        _ folder: any CloudFolder, store: any SyncStore, path: String, now: Date = Date(), createsContainer: Bool = true
    ) throws -> String {
        var state = try store.engineState().map(SyncEngineState.init(serialized:)) ?? SyncEngineState()
        guard let device = state.deviceID ?? DeviceID(store.deviceID) else {
            throw CloudError(.internalError, "the store's device id \(store.deviceID) is not a valid device id")
        }
        let info: ContainerInfo
        do {
            info = try folder.openContainer(boundTo: nil)
        } catch let error as CloudError where error.code == .unknownItem && createsContainer {
            // A data directory that belongs to a container never creates another one (rule 12):
            // an emptied folder it is bound to is restored (`sync init --restore`), not replaced.
            if let bound = state.containerID {
                throw CloudError(
                    .accountTemporarilyUnavailable,
                    "the cloud folder holds no container.json, and this data directory belongs to container "
                        + "\(bound); nothing was created")
            }
            info = try folder.createContainer(device: device, hlc: HLC(millis: now.millisecondsSince1970))
        }
        if let bound = state.containerID, bound != info.containerID {
            throw CloudError(
                .badContainer,
                "this data directory belongs to another account (container \(bound)); the cloud folder holds "
                    + "container \(info.containerID); use another --data-dir for another account")
        }
        if state.containerID == nil { state.containerRestored = info.restored }
        state.containerID = info.containerID
        try store.bindCloudFolder(path, engineState: state.serialized)
        return info.containerID
    }
}
