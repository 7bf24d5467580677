import Foundation
import NotesStore

extension MirrorKeeper.Step {
    /// What a tick says in one line besides its report: a failure, or another process keeping
    /// the folder; nil when it has nothing to say.
    public var line: String? {
        switch self {
        case .quiet, .passed: return nil
        case .failed(let error):
            let reason =
                (error as? MirrorError)?.message ?? (error as? StoreError)?.message ?? error.localizedDescription
            return "notes folder: " + reason
        case .keptElsewhere(let pid):
            let other = pid.map { "another cloudnotes (process \($0))" } ?? "another cloudnotes"
            return "notes folder: \(other) keeps it in step; this one takes over when that one ends"
        }
    }

    /// Whether the tick's pass wrote notes: files read into the store, or edits flagged as
    /// conflicts.
    public var changedNotes: Bool {
        guard case .passed(let report) = self else { return false }
        return !report.fromFolder.isEmpty || !report.conflicts.isEmpty
    }

    /// The line for the app's status bar: `line`, or a file left unread or a conflict a pass
    /// flagged (what a pass wrote or read shows in the list itself).
    public var statusLine: String? {
        guard case .passed(let report) = self else { return line }
        if let first = report.unparsed.first {
            return "notes folder: \(first.path) is not read: \(first.reason); it is left as it is"
        }
        return report.conflicts.first.map {
            "notes folder: \($0): the file's edit overlapped another change; both are kept and the note is flagged"
        }
    }
}
