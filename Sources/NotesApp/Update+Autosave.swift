import Foundation

/// The autosave's two clocks (issue 22, item 1): a save follows `autosaveDelay` of quiet after
/// the last change, and, while the typing never pauses that long, `autosaveMaxWait` after the
/// first change since the last save was sent. So a crash at any moment loses at most
/// `autosaveMaxWait` of typing (plus the time the save takes).
extension AppState {
    /// The timers a change to the editor's text starts: the quiet delay again (only the newest
    /// of those saves), and the maximum wait when none runs since the last save.
    mutating func scheduleAutosave() -> [Effect] {
        let (delay, maxWait) = (autosaveDelay, autosaveMaxWait)
        // Counters only: the text is shared, never copied, by taking the state out and back.
        return editor.withLoaded { open in
            open.autosaveGeneration += 1
            var effects: [Effect] = [.scheduleTimer(.autosave(generation: open.autosaveGeneration), after: delay)]
            if open.saveDeadline == .none {
                open.deadlineGeneration += 1
                open.saveDeadline = .running(generation: open.deadlineGeneration)
                effects.append(.scheduleTimer(.autosaveDeadline(generation: open.deadlineGeneration), after: maxWait))
            }
            return effects
        } ?? []
    }

    /// The maximum wait passed with changes unsaved: they are saved now, or, with a save
    /// running, as soon as it is answered (`noteSaved`).
    mutating func saveDeadlinePassed(_ generation: Int) -> [Effect] {
        guard editor.readLoaded({ $0.saveDeadline == .running(generation: generation) }) == true else { return [] }
        let save = saveEditor()
        editor.withLoaded { open in
            if save.isEmpty && open.savingText != nil && open.hasUnsavedEdits {
                open.saveDeadline = .overdue
            } else if save.isEmpty {
                open.saveDeadline = .none
            }
        }
        return save
    }
}
