import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync

/// A shared place as `status` shows it beside the cloud folder (issue 24): its notebook, owner,
/// this account's role, and its sync's state, read without syncing.
struct ShareStatus: Encodable {
    var place: String
    var notebook: String?
    var owner: String
    var role: String
    /// `synced`, `never synced`, `waiting for the key`, `removed`, or why the place cannot be read.
    var state: String
    var lastSync: String?
    var pending: Int
    var warnings: [String]

    /// Every place this data directory joined.
    static func all(_ context: Context, _ store: NoteStore) throws -> [ShareStatus] {
        let book = try ShareBook.read(store)
        guard !book.places.isEmpty else { return [] }
        let (identity, _) = try ShareID.identity(context, store, name: nil)
        return try book.places.map { try one($0, context, store, identity) }
    }

    static func one(_ entry: ShareBook.Place, _ context: Context, _ store: NoteStore, _ identity: AccountIdentity)
        throws
        -> ShareStatus
    {
        let zone = NotebookSlug.sharedZone(share: entry.share)
        let engine = try store.engineState(stateKey: NoteStore.sharedEngineStateKey(entry.share))
            .map(SyncEngineState.init(serialized:))
        var status = ShareStatus(
            place: entry.place, notebook: try store.notebookName(zone: zone)?.displayName, owner: "?", role: "?",
            state: engine?.lastSync == nil ? "never synced" : "synced",
            lastSync: engine?.lastSync.map { Format.iso(Date(millisecondsSince1970: $0)) },
            pending: try store.pendingCount(inZone: zone), warnings: engine?.warnings ?? [])
        do {
            let location = try CloudLocation.resolve(
                entry.place, environment: context.environment, s3: context.config.s3)
            guard let device = DeviceID(store.deviceID) else { return status }
            let place = SharedPlace(io: location.io, root: location.root, device: device)
            let state = try place.read(after: entry.checkpoint)
            status.owner = ShareSession.describe(state.owner)
            guard let line = state.log.head.member(identity.memberID), line.status != .removed else {
                status.role = "none"
                status.state = "removed (what you had stays here, read-only)"
                return status
            }
            status.role = line.role.rawValue
            // Never an empty notebook that looks synced: the key has not reached this member.
            if case .failure(let error) = Result(catching: { () throws(ShareError) in
                try place.notesFolder(state, identity: identity)
            }) {
                guard error.code == .missing else { throw error }
                status.state = "waiting for the key"
            }
        } catch let error as ShareError {
            status.state = error.message
        } catch let error as CLIError {
            status.state = error.message
        }
        return status
    }

    /// The lines `status` prints for it.
    var lines: [String] {
        let name = notebook.map { "\"\(Output.display($0))\"" } ?? "(no notebook yet)"
        var lines = [
            "shared     \(name) at \(TerminalSafeText.sanitize(place)): owner \(Output.display(owner)), you \(role); "
                + "\(TerminalSafeText.sanitize(state))\(lastSync.map { " \($0)" } ?? ""), pending \(pending)"
        ]
        lines += warnings.map { "warning    \(name): \(TerminalSafeText.sanitize($0))" }
        return lines
    }
}
