import ArgumentParser
import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync

/// What every membership command shares: this account's identity, the place, and the
/// checkpoint remembered for it (SYNC-FORMAT rules 17 and 18).
struct ShareSession {
    let store: NoteStore
    let identity: AccountIdentity
    let location: CloudLocation
    let place: SharedPlace
    var book: ShareBook

    init(_ global: GlobalOptions, place text: String) throws {
        let context = try Context(global)
        store = try context.openStore()
        (identity, _) = try ShareID.identity(context, store, name: nil)
        book = try ShareBook.read(store)
        let named = try Self.place(ofNotebook: text, store, book)
        location = try CloudLocation.resolve(named ?? text, environment: context.environment, s3: context.config.s3)
        guard let device = DeviceID(store.deviceID) else {
            throw CLIError("this data directory has no valid device id")
        }
        place = SharedPlace(io: location.io, root: location.root, device: device)
    }

    /// The place of the shared notebook named `text` (its name as `notebooks` shows it, case and
    /// accents aside), when `text` is neither a bucket URL nor a path that exists here.
    static func place(ofNotebook text: String, _ store: NoteStore, _ book: ShareBook) throws -> String? {
        guard !text.hasPrefix("s3://"), !FileManager.default.fileExists(atPath: text) else { return nil }
        let folded = TextFolding.fold(text)
        let matches = try book.places.filter { entry in
            let name = try store.notebookName(zone: NotebookSlug.sharedZone(share: entry.share))?.displayName
            return name.map(TextFolding.fold) == folded
        }
        guard matches.count <= 1 else {
            throw CLIError("\(Output.display(text)) names several shared notebooks; name the place instead")
        }
        return matches.first?.place
    }

    var checkpoint: ShareCheckpoint? { book.checkpoint(for: location.name) }

    /// Runs a step on the place; its refusal is the one sentence the person sees.
    func attempt<T>(_ body: () throws(ShareError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CLIError(error.message)
        }
    }

    /// Remembers the place as checked at `state`, here and (as a synced setting) for the
    /// account's other devices to follow (`ShareFollow`).
    mutating func remember(_ state: ShareState) throws {
        book.remember(state, at: location.name)
        try book.write(store)
        try ShareFollow.record(share: state.share, place: location.name, store)
    }

    static func describe(_ code: IdentityCode) -> String { "\(code.name) (\(code.fingerprint))" }
}

/// `cloudnotes share init PLACE`: creates an empty shared place owned by this account.
struct ShareInit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a shared place (an empty folder or s3://bucket/prefix) owned by this account.",
        discussion: """
            Writes the place's owner, its first membership entry and the first epoch key, boxed \
            for you. `share create NOTEBOOK PLACE` does this and moves a notebook in.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "An empty folder, or s3://BUCKET/PREFIX.") var place: String

    func run() throws {
        var session = try ShareSession(global, place: place)
        if !session.location.isRemote {
            try FileManager.default.createDirectory(atPath: session.location.root, withIntermediateDirectories: true)
        }
        let location = session.location
        let identity = session.identity
        let state = try session.attempt { () throws(ShareError) in
            try SharedPlace.create(
                io: location.io, root: location.root, device: session.place.device, owner: identity,
                hlc: HLC(millis: Date().millisecondsSince1970))
        }
        try session.remember(state)
        Output.line("created a shared place at \(location.name), owned by \(ShareSession.describe(identity.code))")
        Output.line("invite someone: cloudnotes share invite \(location.name) THEIR-IDENTITY-CODE --role read-write")
    }
}

/// `cloudnotes share invite PLACE CODE --role ROLE`.
struct ShareInvite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Invite the person whose identity code this is (they print it with `share id`).",
        discussion: """
            Writes a membership entry signed by you (the owner, or an admin when the place is a \
            bucket) and the current epoch key boxed for their public key, and prints the line to \
            send them. Compare their fingerprint with them out of band before you send it.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The shared place, or its notebook's name.") var place: String
    @Argument(help: "Their identity code (cnid1.…).") var code: String
    @Option(help: "read-only, read-write or admin.") var role: String = "read-write"

    func run() throws {
        var session = try ShareSession(global, place: place)
        let invitee: IdentityCode
        do {
            invitee = try IdentityCode(text: code)
        } catch {
            throw CLIError(error.description)
        }
        guard let role = ShareRole(rawValue: role), role != .owner else {
            throw CLIError("a role is read-only, read-write or admin; \(role.debugDescription) is not")
        }
        let (place, identity, checkpoint) = (session.place, session.identity, session.checkpoint)
        let state = try session.attempt { () throws(ShareError) in
            try place.invite(invitee, role: role, by: identity, after: checkpoint)
        }
        try session.remember(state)
        Output.line("invited \(ShareSession.describe(invitee)) as \(role.rawValue)")
        Output.line(
            "send them: cloudnotes share accept \(session.location.name) --fingerprint \"\(identity.code.fingerprint)\""
        )
    }
}

/// `cloudnotes share accept PLACE --fingerprint F`.
struct ShareAccept: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept",
        abstract: "Accept an invitation: check the owner's signature and fingerprint, open your key, answer.",
        discussion: """
            Shows the owner's name and fingerprint; compare it with the owner out of band. Without \
            --fingerprint it asks on a terminal. Then its notebook syncs (here and with every \
            `cloudnotes sync`), marked read-only when that is your role.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The shared place.") var place: String
    @Option(help: "The owner's fingerprint, as they told you (for scripts).") var fingerprint: String?

    func run() throws {
        var session = try ShareSession(global, place: place)
        let (place, identity, checkpoint) = (session.place, session.identity, session.checkpoint)
        let state = try session.attempt { () throws(ShareError) in try place.read(after: checkpoint) }
        let owner = ShareSession.describe(state.owner)
        if let fingerprint {
            let digits = { (text: String) in text.filter(\.isNumber) }
            guard digits(fingerprint) == digits(state.owner.fingerprint) else {
                throw CLIError(
                    "the owner of this share is \(owner), not the fingerprint you gave; nothing was accepted")
            }
        } else {
            guard Output.stdinIsTerminal else {
                throw CLIError("pass --fingerprint with the owner's fingerprint (the owner here is \(owner))")
            }
            Output.line("the owner of this share is \(owner). Is that the fingerprint they gave you? [y/N]")
            guard readLine()?.lowercased().hasPrefix("y") == true else { throw CLIError("nothing was accepted") }
        }
        let accepted = try session.attempt { () throws(ShareError) in
            try place.answer(.accepted, by: identity, after: checkpoint)
        }
        try session.remember(accepted.state)
        let role = accepted.state.log.head.member(identity.memberID)?.role.rawValue ?? "?"
        Output.line("joined \(owner)'s share at \(session.location.name) as \(role); its key has arrived")
        guard try ShareSync.runAll(Context(global), session.store) else {
            throw CLIError("joined, but its notes did not sync yet: run `cloudnotes sync` again")
        }
    }
}

/// `cloudnotes share remove PLACE MEMBER`.
struct ShareRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a member (the owner; an admin in a bucket): a new epoch key goes to the members who remain.",
        discussion: "What the removed member already had stays with them.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The shared place, or its notebook's name.") var place: String
    @Argument(help: "The member: their fingerprint, name or identity code.") var member: String

    func run() throws {
        var session = try ShareSession(global, place: place)
        let (place, identity, checkpoint) = (session.place, session.identity, session.checkpoint)
        let before = try session.attempt { () throws(ShareError) in try place.read(after: checkpoint) }
        let candidates = before.log.head.members.filter { line in
            line.status != .removed
                && (line.code.text == member || line.code.name == member
                    || line.code.fingerprint.filter(\.isNumber) == member.filter(\.isNumber))
        }
        guard candidates.count == 1, let target = candidates.first else {
            throw CLIError(
                candidates.isEmpty
                    ? "no member \(member.debugDescription) in this share (see `cloudnotes share list`)"
                    : "\(member.debugDescription) names \(candidates.count) members; give their fingerprint")
        }
        // What this device has applied of the share's notes stays valid from the removed member
        // (rule 20's cutoff); anything they write later is refused.
        let engineState = try session.store.engineState(stateKey: NoteStore.sharedEngineStateKey(before.share))
            .map(SyncEngineState.init(serialized:))
        let zone = ZoneID(NotebookSlug.sharedZone(share: before.share))
        let cutoff = zone.flatMap { engineState?.zones[$0]?.token.seqByDevice } ?? [:]
        let state = try session.attempt { () throws(ShareError) in
            try place.remove(
                target.id, by: identity,
                cutoff: Dictionary(uniqueKeysWithValues: cutoff.map { ($0.key.rawValue, $0.value) }), after: checkpoint)
        }
        try session.remember(state)
        let remaining = state.log.head.members.filter { $0.status != .removed }.count
        Output.line(
            "removed \(ShareSession.describe(target.code)); a new key (epoch \(state.log.head.epoch)) went to the "
                + (remaining == 1 ? "1 member who remains" : "\(remaining) members who remain")
                + ". What they already had stays with them.")
    }
}

/// `cloudnotes share leave PLACE`.
struct ShareLeave: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave",
        abstract: "Leave a share: tell its owner (a signed answer), and forget it here.",
        discussion: "The owner then removes you, which rotates the key.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The shared place, or its notebook's name.") var place: String

    func run() throws {
        var session = try ShareSession(global, place: place)
        let (place, identity, checkpoint) = (session.place, session.identity, session.checkpoint)
        let answered = try session.attempt { () throws(ShareError) in
            try place.answer(.left, by: identity, after: checkpoint)
        }
        session.book.forget(session.location.name)
        try session.book.write(session.store)
        try ShareFollow.forget(share: answered.state.share, session.store)
        Output.line(
            "left \(ShareSession.describe(answered.state.owner))'s share at \(session.location.name); the owner "
                + "removes you to rotate its key")
    }
}

/// `cloudnotes share list [PLACE] [--json]`.
struct ShareList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show shared places: owner, members, roles and status (invited, accepted, left, removed).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "One shared place, or its notebook's name (default: every one this data directory knows).")
    var place: String?
    @Flag(help: "Print JSON.") var json = false

    struct Printed: Encodable {
        struct Member: Encodable {
            var name: String
            var fingerprint: String
            var role: String
            var status: String
        }

        var place: String
        var share: String
        /// The shared notebook's name here; nil before its notes first synced.
        var notebook: String?
        var owner: Member
        var entry: Int64
        var epoch: Int64
        var members: [Member]
        var problems: [String]
    }

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        let places = try place.map { [$0] } ?? ShareBook.read(store).places.map(\.place)
        var printed: [Printed] = []
        var failed = false
        for text in places {
            var session = try ShareSession(global, place: text)
            let (place, checkpoint) = (session.place, session.checkpoint)
            let state: ShareState
            do {
                state = try session.attempt { () throws(ShareError) in try place.read(after: checkpoint) }
            } catch let error as CLIError where self.place == nil {
                // One place that cannot be read does not hide the others; the exit status says so.
                Output.error("cloudnotes: \(text): \(error.message)")
                failed = true
                continue
            }
            // What was checked is remembered (rule 18), so a later rollback is refused here too.
            try session.remember(state)
            let members = state.log.head.members.map { line in
                Printed.Member(
                    name: line.code.name, fingerprint: line.code.fingerprint, role: line.role.rawValue,
                    status: state.shownStatus(of: line.id))
            }
            printed.append(
                Printed(
                    place: session.location.name, share: state.share,
                    notebook: try store.notebookName(zone: NotebookSlug.sharedZone(share: state.share))?.displayName,
                    owner: members.first { $0.role == ShareRole.owner.rawValue } ?? members[0],
                    entry: state.log.head.number, epoch: state.log.head.epoch, members: members,
                    problems: state.problems))
        }
        if json {
            try Output.json(printed)
        } else {
            if printed.isEmpty, !failed {
                Output.line("no shared places (create one with `cloudnotes share init PLACE`)")
            }
            for share in printed {
                let notebook = share.notebook.map { " (notebook \"\(Output.display($0))\")" } ?? ""
                Output.line(
                    "\(share.place)\(notebook): owner \(Output.display(share.owner.name)) (\(share.owner.fingerprint))")
                for member in share.members {
                    Output.line(
                        "  \(Output.display(member.name))  \(member.fingerprint)  \(member.role)  \(member.status)")
                }
                for problem in share.problems { Output.warn(problem) }
            }
        }
        if failed { throw CLIError("some shared places could not be read (above)") }
    }
}
