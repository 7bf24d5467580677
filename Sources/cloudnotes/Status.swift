import ArgumentParser
import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show sync status: account, last sync, pending changes, conflicts, devices, change tokens, warnings.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    struct StatusJSON: Encodable {
        struct Device: Encodable {
            var id: String
            var name: String?
            var lastSeen: String?
            var thisDevice: Bool
        }
        struct Zone: Encodable {
            var token: [String: Int64]
            var published: Int64
            /// This device's own log files in the zone deleted by compaction, through this seq.
            var pruned: Int64
        }
        var accountStatus: String
        var reason: String?
        var cloudFolder: String?
        /// The cloud folder is on the data directory's disk: nothing is safe elsewhere yet.
        var cloudOnThisDisk: Bool
        /// Whether this device reads the folder as an encrypted container (SYNC-FORMAT rule 14).
        var encrypted: Bool
        var containerID: String?
        var device: String
        var lastSync: String?
        var pending: Int
        var conflicts: Int
        var devices: [Device]
        var zones: [String: Zone]
        var warnings: [String]
        /// Why the last sync failed (kind: full, read-only, permission, gone, limit, sign-in, error),
        /// until a sync succeeds.
        var lastError: LastError?
        /// Notes held back by the record size limit, with the reason.
        var held: [Held]
        /// Notes held by a change whose chunk is missing or damaged (SYNC-FORMAT rule 15).
        var waiting: [Waiting] = []
        /// Chunks this device wrote that other devices wait for, missing or damaged.
        var damagedChunks: [Damaged] = []
        /// The shared places joined (issue 24), beside the cloud folder.
        var shares: [ShareStatus] = []
    }
    struct Waiting: Encodable {
        var note: String
        var zone: String
        var writer: String
        var reason: String
    }
    struct Damaged: Encodable {
        var chunk: String
        var reason: String
        var repairable: Bool
        var message: String
    }
    struct LastError: Encodable {
        var kind: String
        var code: String
        var message: String
        var at: String
    }
    struct Held: Encodable {
        var id: String
        var reason: String
    }

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        var status: StatusJSON
        let notices = NoticeList()
        if let (engine, folder) = try SyncSetup.engine(
            context, store, createsContainer: false, asksPassphrase: false, notices: { notices.append($0) })
        {
            let report = Blocking.value { await engine.report() }
            let encrypted = Blocking.value { await (engine.configuration.folder as? DirectoryCloudFolder)?.seal != nil }
            status = StatusJSON(
                accountStatus: report.accountStatus.name, reason: report.accountStatus.reason, cloudFolder: folder,
                cloudOnThisDisk: SyncSetup.isOnThisDisk(folder, store), encrypted: encrypted,
                containerID: report.containerID, device: report.device.rawValue,
                lastSync: report.lastSync.map(Format.iso), pending: report.pending, conflicts: report.conflicts,
                devices: report.devices.map {
                    StatusJSON.Device(
                        id: $0.id.rawValue, name: $0.name, lastSeen: $0.lastSeen.map(Format.iso),
                        thisDevice: $0.isThisDevice)
                },
                zones: Dictionary(
                    uniqueKeysWithValues: report.zones.map { zone, state in
                        (
                            zone.rawValue,
                            StatusJSON.Zone(
                                token: Dictionary(
                                    uniqueKeysWithValues: state.token.seqByDevice.map { ($0.key.rawValue, $0.value) }),
                                published: state.published, pruned: state.deletedThrough)
                        )
                    }),
                warnings: notices.items + report.warnings
                    + report.limitExceeded.filter { !report.warnings.contains($0) }
                    + (report.accountStatus.reason.flatMap { SyncSetup.recoveryHint($0, place: folder) }.map { [$0] }
                        ?? []),
                lastError: report.lastError.map {
                    LastError(
                        kind: $0.kind, code: $0.code, message: $0.message,
                        at: Format.iso(Date(millisecondsSince1970: $0.at)))
                },
                held: report.held.sorted { $0.key < $1.key }.map { Held(id: $0.key, reason: $0.value) },
                waiting: report.waiting.map {
                    Waiting(
                        note: $0.record.recordID, zone: $0.zone.rawValue, writer: $0.device.rawValue,
                        reason: $0.record.reason)
                },
                damagedChunks: report.damagedChunks.map {
                    Damaged(chunk: $0.name, reason: $0.reason, repairable: $0.repairable, message: $0.message)
                })
        } else {
            status = StatusJSON(
                accountStatus: AccountStatus.noAccount.name, reason: "no cloud folder is configured", cloudFolder: nil,
                cloudOnThisDisk: false, encrypted: false, containerID: nil, device: store.deviceID, lastSync: nil,
                pending: try store.pendingCount(),
                conflicts: try store.conflictCount(), devices: [], zones: [:], warnings: notices.items, lastError: nil,
                held: [])
        }
        status.shares = try ShareStatus.all(context, store)
        if json { return try Output.json(status) }
        let account =
            status.accountStatus == "signInFailed"
            ? "sign-in failed: \(status.reason ?? "")"
            : status.accountStatus + (status.reason.map { " (\($0))" } ?? "")
        Output.line("account    \(TerminalSafeText.sanitize(account))")
        Output.line("folder     \(TerminalSafeText.sanitize(status.cloudFolder ?? "none (local only)"))")
        if let containerID = status.containerID {
            Output.line("container  \(containerID)\(status.encrypted ? " (encrypted)" : "")")
        }
        Output.line("device     \(status.device)")
        Output.line("last sync  \(status.lastSync ?? "never")")
        if let failed = status.lastError {
            Output.line("last error \(failed.kind): \(TerminalSafeText.sanitize(failed.message)) (at \(failed.at))")
        }
        Output.line("pending    \(status.pending)")
        Output.line("conflicts  \(status.conflicts)")
        for device in status.devices {
            let name = TerminalSafeText.sanitize(device.name ?? "?")
            let this = device.thisDevice ? ", this device" : ""
            Output.line("device     \(device.id) \(name) (seen \(device.lastSeen ?? "never")\(this))")
        }
        for (zone, state) in status.zones.sorted(by: { $0.key < $1.key }) {
            let token = state.token.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")
            let pruned = state.pruned > 0 ? ", pruned through \(state.pruned)" : ""
            Output.line(
                "zone       \(zone) published \(state.published)\(pruned), read \(token.isEmpty ? "nothing" : token)")
        }
        for held in status.held { Output.line("held       \(held.id): \(TerminalSafeText.sanitize(held.reason))") }
        for waiting in status.waiting {
            Output.line(
                "waiting    note \(TerminalSafeText.sanitize(waiting.note)) is waiting for "
                    + "\(TerminalSafeText.sanitize(waiting.reason)) (written by \(waiting.writer); its "
                    + "`cloudnotes sync --repair` writes the chunk again)")
        }
        for damaged in status.damagedChunks { Output.line("damaged    \(damaged.message)") }
        for warning in status.warnings { Output.line("warning    \(TerminalSafeText.sanitize(warning))") }
        if status.cloudOnThisDisk { Output.line("note       \(SyncSetup.onThisDiskHint)") }
        for share in status.shares { for line in share.lines { Output.line(line) } }
    }
}

/// Messages collected while an engine is set up (`SyncSetup.engine`'s notices), for `status`.
final class NoticeList {
    private(set) var items: [String] = []

    func append(_ message: String) { if !items.contains(message) { items.append(message) } }
}
