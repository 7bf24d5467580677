import CloudFolder
import NotesCore
import NotesStore
import NotesSync

extension TUI {
    /// The app's sync, composed from the command line's context: the cloud folder in force
    /// (none: local only), how to unlock it when its key is not remembered, and how the engine
    /// is made (`SyncSetup.engine`, automatic), and the shared notebooks joined here
    /// (`ShareSync`). `BackgroundSync` (NotesSync) does the rest.
    static func syncClient(_ context: Context, _ store: NoteStore) -> SyncClient {
        let path: String?
        // A folder path that cannot be read fails in `makeEngine`, which says why.
        do { path = try SyncSetup.folderPath(context, store) } catch { path = "" }
        let shares: Bool
        // A book that cannot be read is said by `makeShared`, in the status bar.
        do { shares = try ShareFollow.hasShares(store) } catch { shares = true }
        guard path != nil || shares else { return .localOnly }
        // An encrypted folder whose key is not remembered: the app asks in its dialog. (A path
        // that cannot be resolved fails in `makeEngine`, which says why.)
        var locked: BackgroundSync.Unlock?
        if let path,
            let location = try? CloudLocation.resolve(path, environment: context.environment, s3: context.config.s3),
            let info = FolderAccess.lockedContainer(location, context, store)
        {
            locked = { passphrase in
                try FolderAccess.unlock(location.folder(), info, context, store, passphrase: passphrase)
            }
        }
        let describe: @Sendable (any Error) -> String = { error in
            (error as? CLIError)?.message ?? CloudError.userMessage(error)
        }
        var makeShared: BackgroundSync.MakeShared?
        if shares {
            makeShared = { @Sendable () -> (engines: [BackgroundSync.Shared], problems: [String]) in
                var problems: [String] = []
                do {
                    // This device's copy of the identity: reading it from an encrypted cloud
                    // folder could ask for its passphrase on the terminal the app is drawing on.
                    guard let identity = try LocalIdentity.read(store) else {
                        return ([], ["shared notebooks: run `cloudnotes sync` once to join them on this device"])
                    }
                    let engines = try ShareSync.automaticEngines(context, store, identity: identity) {
                        problems.append($0)
                    }
                    return (engines.map { BackgroundSync.Shared(name: $0.name, engine: $0.engine) }, problems)
                } catch {
                    return ([], ["shared notebooks: sync is off: \(describe(error))"])
                }
            }
        }
        let sync = BackgroundSync(
            localWrites: store.directory.path, locked: locked, describe: describe, makeShared: makeShared
        ) { unlocked in
            guard path != nil, let made = try SyncSetup.engine(context, store, automatic: true, unlocked: unlocked)
            else {
                return nil
            }
            return BackgroundSync.Started(
                engine: made.engine, cloudOnThisDisk: SyncSetup.isOnThisDisk(made.folder, store))
        }
        return sync.client
    }
}
