import ArgumentParser
import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync

struct Debug: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug",
        abstract: "Look inside sync (like CloudKit's debugger).", subcommands: [DebugState.self, DebugRecords.self])
}

struct DebugState: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state", abstract: "Print the sync engine's saved state and the local queues.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        Output.line("device      \(store.deviceID)")
        Output.line("folder      \(try SyncSetup.folderPath(context, store) ?? "none (local only)")")
        Output.line("outbox      \(try store.pendingCount()) pending change(s)")
        Output.line("buffered    \(try store.bufferedRevisionCount()) revision(s) waiting for their parents")
        Output.line("state       \(try store.engineState() ?? "(never synced)")")
    }
}

struct DebugRecords: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "records", abstract: "List every record in a zone of the cloud folder, log by log.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The zone (notebook), e.g. notes.") var zone: String

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        guard let zone = ZoneID(self.zone) else {
            throw CLIError("\"\(TerminalSafeText.sanitize(self.zone))\" is not a zone name")
        }
        guard let (engine, _) = try SyncSetup.engine(context, store, createsContainer: false) else {
            throw CLIError("no cloud folder is configured (local only)")
        }
        let batches = try Blocking.run { try await engine.records(zone: zone) }
        for batch in batches {
            for record in batch.batch.records {
                let revision = record.revision
                let what =
                    revision.fields.map { "\(TerminalSafeText.sanitize($0.title)) (\($0.body.utf8.count) bytes)" }
                    ?? "(deleted)"
                Output.line(
                    "\(batch.device) \(CloudLayout.padded(batch.seq))  \(revision.id.prefix(12))  "
                        + "\(revision.recordID.lowercasedString)  parents \(revision.parents.map { String($0.prefix(8)) }.joined(separator: ","))  \(what)"
                )
            }
        }
    }
}
