import Foundation
import NotesCore
import Synchronization

/// Builds the static web site `cloudnotes publish` writes from note values (a pure function:
/// no store, no disk). The site: `index.html` (every note by notebook, and the search box),
/// `notes/<title>-<id prefix>.html` per note, its attachments in `notes/<title>-<id prefix>/`,
/// `style.css`, `icon.png`, `search.js` and `search-index.js`. Links between published notes are
/// hyperlinks; a link to any other note is its text only.
public enum SiteBuilder {
    /// The folder of the note pages.
    public static let pagesFolder = "notes"

    /// The site of `notes`. `linkTargets`: for each note, where each of its links leads
    /// (`LinkParser` order; nil for none), as the store resolves them; `notebookNames`: zone →
    /// the name shown; `title`: the site's name; `renderer`: the program's version (part of each
    /// page's fingerprint); `unchanged`: page path → fingerprint, of the pages the last publish
    /// wrote that are still there: a page whose fingerprint is the same is `.kept`, not
    /// rendered again.
    public static func site(
        _ notes: [Note], linkTargets: [UUID: [UUID?]], notebookNames: [String: String], title: String,
        renderer version: String = "", unchanged: [String: String] = [:]
    ) -> PublishedSite {
        let notes = notes.sorted {
            ($0.title.lowercased(), $0.idString) < ($1.title.lowercased(), $1.idString)
        }
        let pages = pageNames(notes)
        let renderer = NoteRenderer(pages: pages)
        let backlinks = backlinks(notes, linkTargets: linkTargets, pages: pages)
        let byID = Dictionary(notes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var files: [PublishedSite.File] = [
            .init(path: "style.css", content: .bytes(Array(SiteAssets.styleSheet.utf8))),
            .init(path: "icon.png", content: .bytes(SiteAssets.icon)),
            .init(path: "search.js", content: .bytes(Array(SiteAssets.searchScript.utf8))),
            .init(path: "search-index.js", content: .bytes(Array(searchIndex(notes, pages, notebookNames).utf8))),
            .init(path: "index.html", content: .bytes(Array(indexPage(notes, pages, notebookNames, title).utf8))),
        ]
        // Each note's files depend on that note alone (and the shared maps): made on every core,
        // each into its own slot, so the site is the same whatever the order they finish in.
        let perNote = Mutex(
            [(files: [PublishedSite.File], fingerprint: String)](
                repeating: ([], ""), count: notes.count))
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, notes.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: notes.count, by: workers) {
                let note = notes[index]
                guard let page = pages[note.id] else { continue }
                let targets = linkTargets[note.id] ?? []
                let links = (backlinks[note.id] ?? []).compactMap { byID[$0] }.map {
                    (title: $0.title, page: pages[$0.id] ?? "")
                }
                let notebook = notebookNames[note.zone] ?? note.zone
                let fingerprint = fingerprint(
                    note, page: page, linkPages: targets.map { $0.flatMap { pages[$0] } }, backlinks: links,
                    notebook: notebook, siteTitle: title, renderer: version)
                let made = noteFiles(
                    note, page: page, renderer: renderer, linkTargets: targets, backlinks: links,
                    notebook: notebook, siteTitle: title,
                    kept: unchanged[pagesFolder + "/" + page] == fingerprint)
                perNote.withLock { $0[index] = (made, fingerprint) }
            }
        }
        var fingerprints: [String: String] = [:]
        perNote.withLock { made in
            for (note, entry) in zip(notes, made) {
                files += entry.files
                if let page = pages[note.id] { fingerprints[pagesFolder + "/" + page] = entry.fingerprint }
            }
        }
        return PublishedSite(files: files, fingerprints: fingerprints)
    }

    /// A note's page and its attachments; `kept`: the page is not rendered again.
    static func noteFiles(
        _ note: Note, page: String, renderer: NoteRenderer, linkTargets: [UUID?],
        backlinks: [(title: String, page: String)], notebook: String, siteTitle: String, kept: Bool = false
    ) -> [PublishedSite.File] {
        let folder = String(page.dropLast(5))
        let attachmentFiles = attachmentFileNames(note.attachments)
        var files: [PublishedSite.File] = []
        var attachmentPaths: [String: String] = [:]
        for (attachment, file) in zip(note.attachments, attachmentFiles) {
            attachmentPaths[attachment.name] = folder + "/" + file
            files.append(
                .init(
                    path: pagesFolder + "/" + folder + "/" + file,
                    content: .attachment(sha256: attachment.sha256, size: attachment.size)))
        }
        if kept {
            files.append(.init(path: pagesFolder + "/" + page, content: .kept))
            return files
        }
        let body = renderer.html(of: note, linkTargets: linkTargets, attachments: attachmentPaths)
        let html = notePage(
            note, body: body, notebook: notebook,
            attachments: zip(note.attachments, attachmentFiles).map { ($0.name, folder + "/" + $1) },
            backlinks: backlinks, siteTitle: siteTitle)
        files.append(.init(path: pagesFolder + "/" + page, content: .bytes(Array(html.utf8))))
        return files
    }

    /// Each note's page file name: its title as lowercase ASCII words joined by `-` (at most 48
    /// characters), `-`, and the first 8 hex digits of its id (the whole id if those are taken).
    static func pageNames(_ notes: [Note]) -> [UUID: String] {
        var names: [UUID: String] = [:]
        var taken: Set<String> = []
        for note in notes {
            let slug = slug(note.title)
            var name = slug + "-" + note.idString.prefix(8)
            if taken.contains(name) { name = slug + "-" + note.idString }
            taken.insert(name)
            names[note.id] = name + ".html"
        }
        return names
    }

    /// `title` as a file name: ASCII letters and digits, lowercased, runs of anything else as
    /// one `-`; `note` when nothing is left.
    static func slug(_ title: String) -> String {
        var out = ""
        for scalar in title.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                out.unicodeScalars.append(contentsOf: String(scalar).lowercased().unicodeScalars)
            } else if !out.isEmpty, out.last != "-" {
                out.append("-")
            }
            if out.count >= 48 { break }
        }
        while out.last == "-" { out.removeLast() }
        return out.isEmpty ? "note" : out
    }

    /// Attachment file names, in the order of `attachments`: the name with anything but ASCII
    /// letters, digits, `.`, `_` and `-` as `-`, no leading dot, at most 100 characters, unique
    /// (`-2`, `-3` … before the extension).
    static func attachmentFileNames(_ attachments: [Attachment]) -> [String] {
        var taken: Set<String> = []
        return attachments.map { attachment in
            var safe = String(
                String.UnicodeScalarView(
                    attachment.name.unicodeScalars.map { scalar in
                        scalar.isASCII
                            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                                || scalar == "." || scalar == "_" || scalar == "-")
                            ? scalar : "-"
                    }))
            while safe.hasPrefix(".") { safe.removeFirst() }
            if safe.count > 100 { safe = String(safe.suffix(100)) }
            if safe.isEmpty { safe = "file" }
            var name = safe
            var n = 2
            while taken.contains(name.lowercased()) {
                let dot = safe.lastIndex(of: ".") ?? safe.endIndex
                name = safe[..<dot] + "-\(n)" + safe[dot...]
                n += 1
            }
            taken.insert(name.lowercased())
            return name
        }
    }

    /// Published note → the published notes that link to it (themselves excluded), by title:
    /// only published notes count, so an unpublished note is never named by its links.
    static func backlinks(_ notes: [Note], linkTargets: [UUID: [UUID?]], pages: [UUID: String]) -> [UUID: [UUID]] {
        var result: [UUID: [UUID]] = [:]
        for note in notes {
            var seen: Set<UUID> = []
            for target in (linkTargets[note.id] ?? []).compactMap({ $0 })
            where target != note.id && pages[target] != nil && seen.insert(target).inserted {
                result[target, default: []].append(note.id)
            }
        }
        return result
    }
}
