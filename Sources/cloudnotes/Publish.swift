import ArgumentParser
import CloudFolder
import Foundation
import NotesCore
import NotesPublish
import NotesStore

/// `publish NOTEBOOK|VIEW|NOTE… DIR|s3://BUCKET/PREFIX`: the chosen notes as a static web site
/// (issue 26, "Published notes"). The site is built as values by `SiteBuilder` (NotesPublish)
/// and written by `PublishWriter` into a folder or `PublishBucketWriter` into a bucket.
struct Publish: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract:
            "Publish notes as a static web site: an index, a page per note, links, backlinks and an offline search.",
        discussion: """
            Each SOURCE is a notebook (name or id), a saved view, or a note (id, id prefix or exact title), \
            tried in that order; `notebook:NAME`, `view:NAME` and `note:NOTE` say which. Links to notes that are \
            not published show as their text only. Publishing again into the same folder rewrites only the files \
            whose bytes changed and removes the files of notes no longer published; the folder's \
            .cloudnotes-publish.json lists the files publish wrote, and no other file in the folder is ever \
            changed or removed. A folder that holds other files and no such list is refused. \
            s3://BUCKET/PREFIX publishes into a bucket instead (credentials as for sync: the AWS variables, the \
            config's s3 section or an ~/.aws profile): the same files, each with its content type; publishing \
            again uploads only the files whose content changed and deletes the objects of notes no longer published.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Notebooks, views or notes to publish, then the folder or s3://BUCKET/PREFIX to write into.")
    var arguments: [String] = []
    @Option(help: "The site's title.") var title = "Notes"

    func validate() throws {
        if arguments.count < 2 { throw ValidationError("give what to publish and a folder") }
    }

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        let target = arguments[arguments.count - 1]
        let notes = try Self.selectedNotes(Array(arguments.dropLast()), store, context)
        let linkTargets = try Self.linkTargets(notes, store)
        var names: [String: String] = [:]
        for zone in Set(notes.map(\.zone)) { names[zone] = try store.displayName(ofNotebook: zone) }
        let site = { (unchanged: [String: String]) in
            SiteBuilder.site(
                notes, linkTargets: linkTargets, notebookNames: names, title: title, renderer: CloudNotes.version,
                unchanged: unchanged)
        }
        let result: PublishWriter.Result
        if CloudLocation.isURL(target) {
            let location = try CloudLocation.resolve(target, environment: context.environment, s3: context.config.s3)
            guard let io = location.io as? S3FileIO else { throw CLIError("\(target) is not a bucket") }
            result = try Self.publish(
                site, with: PublishBucketWriter(io: io, root: location.root, name: location.name, store: store))
        } else {
            result = try Self.publish(site, with: PublishWriter(folder: target, store: store))
        }
        Output.info(
            "published \(notes.count) note\(notes.count == 1 ? "" : "s") to \(target): \(result.written) file(s) written, "
                + "\(result.unchanged) unchanged, \(result.removed) removed")
    }

    /// Builds the site and writes it with `writer`, over what the last publish left there.
    static func publish<Writer: SiteWriter>(
        _ site: ([String: String]) -> PublishedSite, with writer: Writer
    ) throws -> PublishWriter.Result {
        let previous = try writer.previous()
        // Pages whose inputs are what the last publish made them from are not rendered again.
        return try writer.write(site(writer.reusable(previous)), previous: previous)
    }

    /// The notes `sources` name (outside the trash), each once, with the attachments whose
    /// content is on this device (the others are named in a warning).
    static func selectedNotes(_ sources: [String], _ store: NoteStore, _ context: Context) throws -> [Note] {
        var ids: Set<UUID> = []
        var zones: Set<String> = []
        let views = try Views.settings(context).views
        let notebooks = try store.notebooks()
        for source in sources {
            let (kind, name) = split(source)
            if kind == nil || kind == "notebook",
                let notebook = notebooks.first(where: { $0.name == name || $0.zone == name })
            {
                zones.insert(notebook.zone)
            } else if kind == nil || kind == "view", let view = views.first(where: { $0.name == name }) {
                var cursor: SearchCursor?
                repeat {
                    let page = try store.search(view.query, limit: 1_000, after: cursor)
                    ids.formUnion(page.hits.map(\.note.id))
                    cursor = page.next
                } while cursor != nil
            } else if kind == "notebook" {
                throw CLIError("no notebook named \"\(name)\"; `cloudnotes notebooks` lists them")
            } else if kind == "view" {
                throw CLIError("no view named \"\(name)\"; `cloudnotes views` lists them")
            } else {
                ids.insert(try store.resolve(name).id)
            }
        }
        return try store.allNotes(includeTrash: false).filter { ids.contains($0.id) || zones.contains($0.zone) }.map {
            note in
            var note = note
            note.attachments = ExportAttachments.files(of: note, store).compactMap { note.attachment(named: $0.name) }
            return note
        }
    }

    /// `notebook:Work` → ("notebook", "Work"); `Work` → (nil, "Work").
    static func split(_ source: String) -> (kind: String?, name: String) {
        for kind in ["notebook", "view", "note"] where source.hasPrefix(kind + ":") {
            return (kind, String(source.dropFirst(kind.count + 1)))
        }
        return (nil, source)
    }

    /// Where each note's links lead (in `LinkParser` order), as `links` resolves them.
    static func linkTargets(_ notes: [Note], _ store: NoteStore) throws -> [UUID: [UUID?]] {
        var result: [UUID: [UUID?]] = [:]
        for note in notes {
            let parsed = LinkParser.links(in: note.body)
            guard !parsed.isEmpty else { continue }
            let resolved = try store.links(of: note.id)
            if resolved.count == parsed.count {
                result[note.id] = resolved.map { $0.note?.id }
            } else {
                // The index was written by another build's parser: resolve each link here.
                result[note.id] = try parsed.map { try store.resolveLink($0.target, folder: $0.folder, from: note.id) }
            }
        }
        return result
    }
}
