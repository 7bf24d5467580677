import CloudFolder
import Foundation
import NotesCore
import NotesStore

/// The account's other devices follow its shares (issue 24): a place joined or created on one
/// device is a synced setting (`share.<share id>`, SyncedSettings), and each sync of another
/// device joins the places it names that it has not joined yet. On the owner's devices the
/// notebook moved into the place moves there too, with its history, so no device keeps sending
/// its notes to the private cloud folder. A place left on one device (the setting removed) is
/// forgotten on the others.
///
/// Following needs the account's identity on this device: an encrypted cloud folder gives every
/// device the same one (SYNC-FORMAT "Identities"); with a plain folder each device has its own,
/// is not a member, and is told to be invited.
enum ShareFollow {
    /// The setting's key for `share`.
    static func key(_ share: String) -> String { SettingKeys.sharePrefix + share }

    /// Records, for the account's other devices, that this device joined `place` (`share`), and
    /// for its owner the zone of the notebook moved into it (kept when a later call names none:
    /// an invitation or a removal records the place again).
    static func record(share: String, place: String, movedFrom zone: String? = nil, _ store: NoteStore) throws {
        let value = place + (zone.map { "\n" + $0 } ?? "")
        let held = try store.settingsState().values[key(share)]
        guard held != value, zone != nil || held?.hasPrefix(place + "\n") != true else { return }
        do {
            try store.writeSetting(key(share), value, here: false)
        } catch let error as SettingsError {
            Output.warn("your other devices will not follow this share by themselves: \(error.message)")
        }
    }

    /// Forgets `share` on the account's other devices (`share leave`).
    static func forget(share: String, _ store: NoteStore) throws {
        guard try store.settingsState().values[key(share)] != nil else { return }
        try store.writeSetting(key(share), nil, here: false)
    }

    /// Whether the account has shares this device would sync or follow.
    static func hasShares(_ store: NoteStore) throws -> Bool {
        try !ShareBook.read(store).places.isEmpty
            || store.settingsState().values.keys.contains { $0.hasPrefix(SettingKeys.sharePrefix) }
    }

    /// Joins into `book` every place the settings name that it lacks, moves an owned notebook in
    /// where the owner's device moved it, and forgets places left elsewhere; what cannot be done
    /// now is said through `notify`. The book is written by the caller.
    static func follow(
        _ context: Context, _ store: NoteStore, identity: AccountIdentity, book: inout ShareBook,
        notify: (String) -> Void
    ) throws {
        let settings = try store.settingsState()
        for (key, setting) in settings.synced where key.hasPrefix(SettingKeys.sharePrefix) {
            let share = String(key.dropFirst(SettingKeys.sharePrefix.count))
            let joined = book.places.first { $0.share == share }
            guard let value = setting.value else {
                // Left on another device: forgotten here too (the notes stay, as after `share leave`).
                if let joined, setting.device != store.deviceID { book.forget(joined.place) }
                continue
            }
            guard joined == nil else { continue }
            let parts = value.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let (place, movedFrom) = (String(parts[0]), parts.count > 1 ? String(parts[1]) : nil)
            do {
                try join(
                    place, share: share, movedFrom: movedFrom, context, store, identity: identity, book: &book)
            } catch let error as CLIError {
                notify(
                    "the share at \(place), joined on another of your devices, is not followed here: \(error.message)")
            }
        }
    }

    private static func join(
        _ place: String, share: String, movedFrom: String?, _ context: Context, _ store: NoteStore,
        identity: AccountIdentity, book: inout ShareBook
    ) throws {
        let location = try CloudLocation.resolve(place, environment: context.environment, s3: context.config.s3)
        guard let device = DeviceID(store.deviceID) else {
            throw CLIError("this data directory has no valid device id")
        }
        let state: ShareState
        do {
            state = try SharedPlace(io: location.io, root: location.root, device: device).read()
        } catch {
            throw CLIError(error.message + " (`cloudnotes share accept PATH` joins it where this device sees it)")
        }
        guard state.share == share else { throw CLIError("it now holds another share") }
        guard let line = state.log.head.member(identity.memberID), line.status != .removed else {
            throw CLIError(
                "this device's identity is not a member there; an encrypted cloud folder gives all your devices "
                    + "one identity, or invite this one (`cloudnotes share id`)")
        }
        book.remember(state, at: location.name)
        // The owner's notebook moves in here too, only where this account owns the place: a
        // setting alone never moves notes into a place someone else controls.
        let zone = NotebookSlug.sharedZone(share: share)
        if let movedFrom, state.owner.memberID == identity.memberID, !NotebookSlug.isSharedZone(movedFrom),
            try store.notebooks().contains(where: { $0.zone == movedFrom })
        {
            do {
                try store.moveNotebook(movedFrom, intoShared: zone)
            } catch let error as StoreError {
                throw CLIError("its notebook did not move in here (\(error.message))")
            }
        }
    }
}
