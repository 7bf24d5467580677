import Foundation
import NotesCore
import NotesStore

extension NoteStore {
    /// Resolves every reference before a command changes anything, so that an unknown or
    /// ambiguous one in the middle of a list is an error with nothing half done. A note named
    /// twice is returned once.
    func resolveAll(_ references: [String]) throws -> [Note] {
        var seen = Set<UUID>()
        return try references.map(resolve).filter { seen.insert($0.id).inserted }
    }
}
