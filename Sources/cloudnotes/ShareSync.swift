import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync

/// Syncs the notes of every shared place this data directory has joined (SYNC-FORMAT "Notes in
/// a shared place"): one engine per place, over `SharedZoneStore`, signed and sealed with the
/// place's epoch keys, after the membership is read again (a new member, a removal, a new key).
enum ShareSync {
    /// One engine for the place `entry` names, after reading its membership (remembered in the
    /// book) and this member's role (a read-only mark in the store); nil when this account is no
    /// longer a member (said through `notify`).
    static func engine(
        _ entry: ShareBook.Place, _ context: Context, _ store: NoteStore, identity: AccountIdentity,
        book: inout ShareBook, automatic: Bool = false, notify: (String) -> Void
    ) throws -> SyncEngine? {
        let location = try CloudLocation.resolve(entry.place, environment: context.environment, s3: context.config.s3)
        guard let device = DeviceID(store.deviceID) else {
            throw CLIError("this data directory has no valid device id")
        }
        let place = SharedPlace(io: location.io, root: location.root, device: device)
        let zone = NotebookSlug.sharedZone(share: entry.share)
        do {
            let state = try place.read(after: entry.checkpoint)
            guard state.share == entry.share else {
                throw ShareError(.placeTaken, "\(entry.place) now holds another share than the one joined here")
            }
            book.remember(state, at: entry.place)
            for problem in state.problems { notify("\(entry.place): \(problem)") }
            guard
                try recordRole(
                    state, zone: zone, identity: identity, store, notify: { notify("\(entry.place): \($0)") })
            else { return nil }
            // A running engine (the app, `sync --watch`) records a new role or a removal at the
            // pass that reads it; a store that cannot be written now is written at the next.
            let followRole: @Sendable (ShareState) -> Void = { state in
                _ = try? recordRole(state, zone: zone, identity: identity, store, notify: { _ in })
            }
            let poll = context.config.pollIntervalSeconds
            var configuration = SyncEngine.Configuration(
                folder: try place.notesFolder(state, identity: identity, onMembership: followRole),
                deviceName: context.config.deviceName,
                conflictStrategy: context.config.conflictStrategy, automaticallySync: automatic,
                debounceSeconds: context.config.syncDebounceSeconds, createsContainer: false,
                makeWatcher: { onChange in
                    location.isRemote
                        ? try FolderWatcher.pollingOnly(pollInterval: poll, onChange: onChange)
                        : try FolderWatcher(root: location.root, pollInterval: poll, onChange: onChange)
                })
            configuration.maxRecordBytes = context.config.maxNoteBytes
            // One sync of this place at a time per data directory; beside the cloud folder's (its
            // own lock): the two touch other outbox rows and other engine states.
            configuration.passLock = SyncPassLock(
                path: store.directory.appendingPathComponent("sync.share.\(entry.share).lock").path)
            configuration.logger.logLevel = .critical
            return try SyncEngine(store: SharedZoneStore(store, share: entry.share), configuration: configuration)
        } catch let error as ShareError {
            throw CLIError("\(entry.place): \(error.message)")
        }
    }

    /// Records this account's role in the shared notebook `zone` as `state` gives it (for the
    /// picker, `notebooks`, and the read-only mark the editor and the CLI obey). False when the
    /// account is no longer a member: its notes stay, read-only, and `notify` says so.
    static func recordRole(
        _ state: ShareState, zone: String, identity: AccountIdentity, _ store: NoteStore, notify: (String) -> Void
    ) throws -> Bool {
        let owner = ShareSession.describe(state.owner)
        let ownerHere = state.owner.memberID == identity.memberID ? "you" : owner
        guard let line = state.log.head.member(identity.memberID), line.status != .removed else {
            try store.setSharing(zone, NotebookSharing(owner: ownerHere, role: "removed"))
            try store.setReadOnly(zone, owner: "\(owner), who removed you")
            notify("you are no longer a member of \(owner)'s share; the notes you had stay here, read-only")
            return false
        }
        try store.setSharing(zone, NotebookSharing(owner: ownerHere, role: line.role.rawValue))
        try store.setReadOnly(zone, owner: line.role == .readOnly ? owner : nil)
        return true
    }

    /// The places this data directory has joined and the account's identity, after following
    /// what the account's other devices joined or left (`ShareFollow`); nil when it has none.
    /// `identity`: the account's, when the caller has it; else it is read as every share
    /// command reads it.
    static func prepared(
        _ context: Context, _ store: NoteStore, identity known: AccountIdentity? = nil, notify: (String) -> Void
    ) throws -> (book: ShareBook, identity: AccountIdentity)? {
        guard try ShareFollow.hasShares(store) else { return nil }
        var book = try ShareBook.read(store)
        let identity = try known ?? ShareID.identity(context, store, name: nil).0
        try ShareFollow.follow(context, store, identity: identity, book: &book, notify: notify)
        return (book, identity)
    }

    /// An automatic engine for every joined place that can be synced now, each with its
    /// notebook's name (`sync --watch`, the app); a place that cannot is said through `notify`.
    /// `identity`: the account's, when the caller has it (the app must not be asked for a
    /// passphrase on its terminal); else it is read as every share command reads it.
    static func automaticEngines(
        _ context: Context, _ store: NoteStore, identity known: AccountIdentity? = nil, notify: (String) -> Void
    ) throws -> [(name: String, engine: SyncEngine)] {
        guard let ready = try prepared(context, store, identity: known, notify: notify) else { return [] }
        var book = ready.book
        let identity = ready.identity
        var engines: [(name: String, engine: SyncEngine)] = []
        for entry in book.places {
            do {
                guard
                    let engine = try engine(
                        entry, context, store, identity: identity, book: &book, automatic: true, notify: notify)
                else { continue }
                let name = try store.notebookName(zone: NotebookSlug.sharedZone(share: entry.share))?.displayName
                engines.append((name.map { Output.display($0) } ?? entry.place, engine))
            } catch let error as CLIError {
                notify(error.message)
            }
        }
        try book.write(store)
        return engines
    }

    /// Syncs every joined place once and prints what each did; a place that cannot be synced is
    /// said and does not stop the others. With `compact`, each place is then compacted as the
    /// cloud folder is (`sync --compact`: its snapshot signed like every file of the place).
    /// Returns whether every place synced.
    @discardableResult
    static func runAll(_ context: Context, _ store: NoteStore, compact: Bool = false) throws -> Bool {
        guard let ready = try prepared(context, store, notify: Output.warn) else { return true }
        var book = ready.book
        let identity = ready.identity
        var allSynced = true
        for entry in book.places {
            let zone = NotebookSlug.sharedZone(share: entry.share)
            // The name as it is after the sync: a member's first sync brings it.
            let label = { () throws -> String in
                let name = try store.notebookName(zone: zone)?.displayName
                return "shared notebook \(name.map { "\"\(Output.display($0))\"" } ?? "(none yet)") at \(entry.place)"
            }
            do {
                guard
                    let engine = try engine(entry, context, store, identity: identity, book: &book, notify: Output.warn)
                else { continue }
                let summary = Blocking.value { await engine.syncNow() }
                Output.line("\(try label()):")
                try SyncRun.print(summary, engine)
                if compact {
                    let compacted = try Blocking.run { try await engine.compact() }
                    SyncRun.print(compacted)
                }
            } catch let error as CLIError {
                Output.error("cloudnotes: \(try label()): \(error.message)")
                allSynced = false
            }
        }
        try book.write(store)
        return allSynced
    }
}
