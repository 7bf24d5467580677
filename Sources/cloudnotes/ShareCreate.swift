import ArgumentParser
import CloudFolder
import Foundation
import NotesCore
import NotesStore

/// `cloudnotes share create NOTEBOOK PLACE`: moves a notebook of one's own into a new shared
/// place (SYNC-FORMAT "Notes in a shared place") and syncs it there.
struct ShareCreate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Move a notebook into a new shared place (an empty folder or s3://bucket/prefix) and sync it there.",
        discussion: """
            Creates the place (owned by this account), moves every note of the notebook, with \
            its whole history, into the place's notebook, and syncs it: from then on its notes \
            sync through the place, end-to-end encrypted with the place's key, every change \
            signed; invite people with `share invite PLACE CODE --role ROLE`.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The notebook (its name or zone id).") var notebook: String
    @Argument(help: "An empty folder, or s3://BUCKET/PREFIX.") var place: String

    func run() throws {
        var session = try ShareSession(global, place: place)
        let store = session.store
        let source: NotebookInfo
        do {
            source = try store.notebook(named: notebook)
        } catch let error as StoreError {
            throw CLIError(error.message)
        }
        guard source.zone != Note.defaultZone else {
            throw CLIError(
                "the default notebook is not shared; create one (`cloudnotes notebook create NAME`), move the notes "
                    + "to share into it (`cloudnotes move`), and share that")
        }
        guard !NotebookSlug.isSharedZone(source.zone) else {
            throw CLIError("\(Output.display(source.name)) is shared already (see `cloudnotes share list`)")
        }
        if !session.location.isRemote {
            try FileManager.default.createDirectory(atPath: session.location.root, withIntermediateDirectories: true)
        }
        let (location, identity) = (session.location, session.identity)
        let state = try session.attempt { () throws(ShareError) in
            try SharedPlace.create(
                io: location.io, root: location.root, device: session.place.device, owner: identity,
                hlc: HLC(millis: Date().millisecondsSince1970))
        }
        try session.remember(state)
        let moved: Int
        do {
            moved = try store.moveNotebook(source.zone, intoShared: NotebookSlug.sharedZone(share: state.share))
            // The account's other devices move their copy of the notebook in as they follow.
            try ShareFollow.record(share: state.share, place: location.name, movedFrom: source.zone, store)
        } catch let error as StoreError {
            throw CLIError(
                "the shared place was created at \(location.name), but the notebook did not move (\(error.message)); "
                    + "nothing of it is shared")
        }
        Output.line(
            "moved \(Output.display(source.name)) (\(moved) note(s)) into a shared place at \(location.name), owned by "
                + ShareSession.describe(identity.code))
        guard try ShareSync.runAll(Context(global), store) else {
            throw CLIError("the notebook moved, but did not sync to its place yet: run `cloudnotes sync` again")
        }
        Output.line("invite someone: cloudnotes share invite \(location.name) THEIR-IDENTITY-CODE --role read-write")
    }
}
