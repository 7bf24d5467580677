import NotesCore
import NotesStore

/// The notebooks as folders (`ExportNames.folders`), both ways: a folder of the notes folder is
/// the notebook it names; a folder naming none becomes a new notebook by that name.
struct NotebookFolders {
    /// Zone → display name of every notebook.
    private(set) var names: [String: String] = [:]
    /// Zone → folder.
    private(set) var folders: [String: String] = [:]
    private var zoneOfFolder: [String: String] = [:]

    init(_ store: NoteStore, zonesOf notes: [Note] = []) throws {
        for info in try store.notebooks() { names[info.zone] = info.name }
        for note in notes where names[note.zone] == nil {
            names[note.zone] = try store.displayName(ofNotebook: note.zone)
        }
        index()
    }

    private mutating func index() {
        folders = ExportNames.folders(names)
        zoneOfFolder = Dictionary(folders.map { ($1.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The notebook of the folder `folder` (`""`: the top, the default notebook); a new
    /// notebook named like the folder when there is none (not with `create` false: nil).
    mutating func zone(of folder: String, in store: NoteStore, create: Bool = true) throws -> String? {
        if folder.isEmpty { return Note.defaultZone }
        if let zone = zoneOfFolder[folder.lowercased()] { return zone }
        guard create else { return nil }
        let info: NotebookInfo
        do {
            info = try store.createNotebook(named: folder)
        } catch {
            // A name the store folds onto an existing notebook's: that notebook.
            info = try store.notebook(named: folder)
        }
        names[info.zone] = info.name
        index()
        return info.zone
    }
}
