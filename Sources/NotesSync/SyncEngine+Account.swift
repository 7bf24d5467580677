import CloudFolder
import Foundation
import NotesCore

/// Account status and error strategies (ARCHITECTURE §4, SYNC-FORMAT rule 12).
extension SyncEngine {
    /// Opens the container (creating it only in an empty folder this store is not bound to),
    /// binds the store on first use, and once per session removes this device's leftover temp
    /// files and checks for a clone of this device (rotating to a new id when `rotating`).
    /// Throws when the account is not available; the status then says why.
    func prepareAccount(rotating: Bool = true) throws -> any CloudFolder {
        guard let folder else {
            accountStatus = .noAccount
            throw CloudError(.notAuthenticated, "no cloud folder is configured; notes stay on this device")
        }
        let info: ContainerInfo
        if let opened = passContainer {
            info = opened
        } else {
            do {
                info = try folder.openContainer(boundTo: state.containerID)
            } catch let error as CloudError
                where error.code == .unknownItem && state.containerID == nil && configuration.createsContainer
            {
                info = try folder.createContainer(
                    device: device, hlc: HLC(millis: configuration.now().millisecondsSince1970))
            }
        }
        if let bound = state.containerID, bound != info.containerID {
            let reason =
                "the cloud folder holds another account (container \(info.containerID)); this device's notes "
                + "belong to container \(bound) and are kept, nothing was synced"
            if accountStatus != .restricted(reason: reason) {
                emit(.accountChange(.switchAccounts(bound: bound, found: info.containerID)))
            }
            accountStatus = .restricted(reason: reason)
            throw CloudError(.badContainer, reason)
        }
        if state.containerID != nil, state.containerRestored != info.restored {
            try rejoinRestoredContainer(info)
        }
        if state.containerID == nil {
            state.containerID = info.containerID
            state.containerRestored = info.restored
            try store.saveEngineState(state.serialized)
            emit(.accountChange(.signIn(containerID: info.containerID)))
        }
        if !preparedSession {
            if let clone = try cloneEvidence(folder) {
                guard rotating else {
                    warn("\(clone); the next sync moves this device to a new device id")
                    accountStatus = .available
                    return folder
                }
                try rotateDeviceID(because: clone)
            }
            let removed = try folder.removeOwnTemporaryFiles(device: device)
            if !removed.isEmpty { logger.info("removed \(removed.count) temp file(s) a crash left behind") }
            preparedSession = true
        }
        accountStatus = .available
        if passFolder != nil { passContainer = info }
        return folder
    }

    /// Turns an error into the account status, the status phase and (automatic mode) a retry.
    @discardableResult
    func record(_ error: Error) -> CloudError {
        let cloud: CloudError
        if let error = error as? CloudError {
            cloud = error
        } else {
            logger.error("sync failed: \(String(describing: error))")
            cloud = CloudError.wrapping(error)
        }
        // Counts for the status only: a failed read keeps the last count.
        let pending = (try? store.pendingCount()) ?? status.pendingCount
        let waiting = pending > 0 ? "; \(pending) change(s) wait here" : ""
        switch cloud.code {
        case .notAuthenticated where folder == nil:
            accountStatus = .noAccount
            setPhase(.localOnly)
        case .notAuthenticated:
            // A folder is configured: the cloud refused us. Never "local only" (issue 21 item 11).
            accountStatus = .signInFailed(reason: cloud.message)
            setPhase(.signInFailed(reason: cloud.message + waiting))
        case .accountTemporarilyUnavailable, .networkUnavailable, .networkFailure:
            accountStatus = .temporarilyUnavailable(reason: cloud.message)
            setPhase(.offline(reason: "cloud folder unavailable: \(cloud.message)\(waiting)"))
        case .permissionFailure:
            accountStatus = .restricted(reason: cloud.message)
            setPhase(.offline(reason: "cloud folder is read-only or not permitted: \(cloud.message)\(waiting)"))
        case .quotaExceeded:
            setPhase(.error(message: "cloud folder is full: \(cloud.message)\(waiting)"))
        case .requestRateLimited:
            let after = cloud.retryAfter.map { "; it asked to wait \(Int($0.rounded(.up)))s" } ?? ""
            setPhase(.offline(reason: "the cloud asks for fewer requests: \(cloud.message)\(after)\(waiting)"))
        default:
            setPhase(.error(message: cloud.userMessage + waiting))
        }
        logger.error("sync failed: \(cloud)")
        if configuration.automaticallySync, RetryPolicy.isRetryable(cloud.code) {
            scheduleRetry(retryAfter: cloud.retryAfter)
        }
        return cloud
    }

    /// Rewrites this device's file (name, last seen, acknowledged tokens, pruned floors) at most
    /// once a minute, or now when `force` (compaction announces a floor before deleting).
    /// Also at once when the chunks this device waits for changed (`waitingFor`, rule 15), so
    /// their writers learn it at their next look.
    func writeDeviceFileIfDue(now: Int64, force: Bool = false) throws {
        guard let folder else { return }
        let waitingFor = Array(Set(state.waiting.map(\.record.chunk)).sorted().prefix(DeviceInfo.maxWaitingFor))
        if !force, waitingFor == announcedWaiting ?? [], let written = state.deviceFileWritten, now - written < 60_000 {
            return
        }
        let info = DeviceInfo(
            name: configuration.deviceName, lastSeen: now,
            acknowledged: state.zones.mapValues(\.token), pruned: state.zones.mapValues(\.pruned),
            waitingFor: waitingFor)
        try folder.writeDevice(info, device: device, hlc: HLC(millis: now))
        state.deviceFileWritten = now
        announcedWaiting = waitingFor
    }

    /// What `cloudnotes status` shows: a fresh look at the folder plus the engine's state.
    public func report() -> SyncReport {
        var report = SyncReport(
            accountStatus: accountStatus, containerID: state.containerID, device: device,
            lastSync: state.lastSync.map(Date.init(millisecondsSince1970:)),
            // Counts for the status only.
            pending: (try? store.pendingCount()) ?? 0, conflicts: (try? store.conflictCount()) ?? 0,
            zones: state.zones, warnings: warnings + state.warnings.filter { !warnings.contains($0) },
            limitExceeded: limitExceeded.sorted { $0.key.uuidString < $1.key.uuidString }.map(\.value),
            lastError: state.lastError,
            held: limitExceeded.isEmpty
                ? state.held
                : Dictionary(uniqueKeysWithValues: limitExceeded.map { ($0.key.lowercasedString, $0.value) }))
        report.warnings += rotationWarnings.filter { !report.warnings.contains($0) }
        report.waiting = state.waiting
        do {
            let folder = try prepareAccount(rotating: false)
            report.accountStatus = accountStatus
            report.warnings += warnings.filter { !report.warnings.contains($0) }
            let listing = try folder.devices()
            var infos: [DeviceID: DeviceInfo] = [:]
            for id in listing.items {
                // A device file that cannot be read gives no name: the id is shown instead.
                let info = try? folder.readDevice(id)
                if let info { infos[id] = info }
                report.devices.append(
                    SyncReport.Device(
                        id: id, name: info?.name, lastSeen: info.map { Date(millisecondsSince1970: $0.lastSeen) },
                        isThisDevice: id == device))
            }
            if !listing.ignored.isEmpty {
                report.warnings.append("\(listing.ignored.count) unknown file(s) in the devices folder were ignored")
            }
            report.damagedChunks = try damagedChunks(in: folder, waitedForBy: infos)
        } catch {
            let cloud = record(error)
            report.accountStatus = accountStatus
            if report.accountStatus == .available { report.warnings.append(cloud.userMessage) }
        }
        return report
    }
}

/// The engine's account, state and warnings, for `status`.
public struct SyncReport: Sendable {
    public struct Device: Sendable, Equatable {
        public var id: DeviceID
        public var name: String?
        public var lastSeen: Date?
        public var isThisDevice: Bool
    }

    public var accountStatus: AccountStatus
    public var containerID: String?
    public var device: DeviceID
    public var lastSync: Date?
    public var pending: Int
    public var conflicts: Int
    public var zones: [ZoneID: SyncEngineState.Zone]
    public var warnings: [String]
    public var limitExceeded: [String]
    /// Why the last sync failed, until a sync succeeds.
    public var lastError: SyncEngineState.LastError?
    /// Notes held back by the size limit: record id → reason.
    public var held: [String: String] = [:]
    public var devices: [Device] = []
    /// Records waiting for a chunk here (rule 15): each holds only its note.
    public var waiting: [SyncEngineState.Waiting] = []
    /// Chunks this device wrote that other devices wait for and that do not check out.
    public var damagedChunks: [DamagedChunk] = []
}
