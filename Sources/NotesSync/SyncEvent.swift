import CloudFolder
import Foundation
import NotesCore

/// Whether the engine can reach an account (ARCHITECTURE §4), CKAccountStatus's vocabulary.
public enum AccountStatus: Sendable, Equatable {
    /// The cloud folder is there and bound to this store.
    case available
    /// No cloud folder is configured: notes stay on this device.
    case noAccount
    /// The folder is missing, unmounted or failing (I/O); changes queue locally.
    case temporarilyUnavailable(reason: String)
    /// Permission denied or read-only, or the folder holds another account.
    case restricted(reason: String)
    /// The cloud refused the credentials (wrong or expired S3 keys, a wrong passphrase).
    case signInFailed(reason: String)

    /// One word for status output: available, noAccount, temporarilyUnavailable, restricted,
    /// signInFailed.
    public var name: String {
        switch self {
        case .available: return "available"
        case .noAccount: return "noAccount"
        case .temporarilyUnavailable: return "temporarilyUnavailable"
        case .restricted: return "restricted"
        case .signInFailed: return "signInFailed"
        }
    }

    public var reason: String? {
        switch self {
        case .available, .noAccount: return nil
        case .temporarilyUnavailable(let reason), .restricted(let reason), .signInFailed(let reason): return reason
        }
    }
}

/// What the engine tells its delegate and the UI, in CKSyncEngine's vocabulary (ARCHITECTURE §4).
public enum SyncEvent: Sendable, Equatable {
    public enum AccountChange: Sendable, Equatable {
        /// The store was bound to this container (first sync, or `sync init`).
        case signIn(containerID: String)
        /// The folder went away or is no longer configured.
        case signOut
        /// The folder holds another container than the store is bound to; nothing was changed,
        /// the local data is kept.
        case switchAccounts(bound: String, found: String)
    }

    /// A record a send could not include, with the reason (limitExceeded for a note over 1 MB).
    public struct FailedRecord: Sendable, Equatable {
        public var recordID: UUID
        public var error: CloudError
    }

    case stateUpdate(SyncEngineState)
    case accountChange(AccountChange)
    /// The zones the folder lists.
    case fetchedDatabaseChanges(zones: [ZoneID])
    /// Records changed by a fetch of one zone (merged: merge revisions made).
    case fetchedRecordZoneChanges(zone: ZoneID, changed: [UUID], merged: Int)
    /// One published batch: its saved revision ids; or records a send left out.
    case sentRecordZoneChanges(zone: ZoneID, saved: [String], failed: [FailedRecord])
    case willFetchChanges
    case didFetchChanges
    case willSendChanges
    case didSendChanges
    /// A setting another device wrote is in force here now (SYNC-FORMAT "Settings"): its key,
    /// its value (nil: removed) and the device that wrote it.
    case settingChanged(key: String, value: String?, device: String)
}
