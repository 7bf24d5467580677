import Foundation
import NotesCore

extension FolderMirror {
    /// The folder's changes less those to a notebook shared with this account read-only, which
    /// the store would refuse (`NoteStore.requireWritable`) and which would stop every pass: an
    /// edited, moved or new file there is kept as it is and named in the report (`files status`,
    /// the app's status bar), and never written over (`writeFolder` passes over a file it names);
    /// a removed one loses its record, so the pass writes the note's file again.
    func withoutReadOnly(_ changes: [FolderChange], _ report: inout MirrorReport) throws -> [FolderChange] {
        var notebooks = try NotebookFolders(store)
        var owners: [String: String?] = [:]
        func owner(_ zone: String?) throws -> String? {
            guard let zone else { return nil }
            if let known = owners[zone] { return known }
            let found = try store.readOnlyOwner(zone)
            owners[zone] = found
            return found
        }
        func zone(ofNote id: String) throws -> String? {
            try UUID(uuidString: id).flatMap { try store.zone(ofNote: $0) }
        }
        var kept: [FolderChange] = []
        for change in changes {
            let path: String
            let current: String?
            switch change {
            case .touched:
                kept.append(change)
                continue
            case .deleted(let id, let removed):
                guard let owner = try owner(zone(ofNote: id)) else {
                    kept.append(change)
                    continue
                }
                state[id: id] = nil
                report.fromFolder.append(
                    "kept \(removed): its notebook is shared with you read-only by \(owner); the file is written again")
                continue
            case .edited(let id, let file), .moved(let id, _, let file), .adopted(let id, let file):
                path = file.path
                current = try zone(ofNote: id)
            case .created(let file):
                path = file.path
                current = nil
            }
            let target = try notebooks.zone(of: Self.folder(of: path), in: store, create: false)
            guard let owner = try owner(current) ?? owner(target) else {
                kept.append(change)
                continue
            }
            report.unparsed.append(
                (path, "its notebook is shared with you read-only by \(owner), so its change is not sent"))
        }
        return kept
    }
}
