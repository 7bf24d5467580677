import Foundation
import GRDB
import NotesCore

/// The conflict flag outlives the merge that raised it (issue 22, item 4): conflict markers in
/// a note's text always come with the flag (`conflicts` lists the note, the list shows ⚠).
/// An edit on top of a flagged note that keeps the markers (typing on in the app, a CLI
/// `edit`, another window's save) keeps the flag; an edit that removes them, or the resolver
/// (`resolveConflict`), clears it.
extension NoteStore {
    /// Whether `body` holds a whole conflict block: an ours marker line, then the separator
    /// line, then a theirs marker line (the lines `TextMerge` writes).
    static func containsConflictMarkers(_ body: String) -> Bool {
        // Most bodies have no "<<<<<<<" at all: one substring search decides.
        guard body.contains(TextMerge.oursMarker) else { return false }
        var sawOurs = false
        var sawSeparator = false
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(TextMerge.oursMarker) {
                sawOurs = true
            } else if sawOurs, line == TextMerge.separatorMarker || line == TextMerge.separatorMarker + "\r" {
                sawSeparator = true
            } else if sawSeparator, line.hasPrefix(TextMerge.theirsMarker) {
                return true
            }
        }
        return false
    }

    /// Whether an edit with `body` on top of a note in state `previous` keeps the note flagged.
    static func keepsConflictFlag(_ previous: Note.SyncState?, body: String) -> Bool {
        previous == .conflict && containsConflictMarkers(body)
    }

    /// The merge a flagged note's conflict started at: back from `head` along single-parent
    /// edits to the first revision with several parents (graph only, no bodies read).
    static func mergeAncestor(of head: String, graph: [String: [String]]) -> String? {
        var id = head
        var seen: Set<String> = []
        while let parents = graph[id], seen.insert(id).inserted {
            if parents.count > 1 { return id }
            guard parents.count == 1 else { return nil }
            id = parents[0]
        }
        return nil
    }
}
