import Foundation
import NotesApp
import NotesTestSupport
import TerminalUI

/// Answers that have not arrived yet, as `EffectRunner` delivers them: reads, searches and
/// writes run on three queues, each answering in order while the queues interleave, and a
/// list, locate, search or trash request overtaken by a newer one of its kind before it
/// started is never answered. Keys pressed meanwhile see the app as it is between answers.
struct HeldAnswers {
    private(set) var waiting: [Effect] = []

    var isEmpty: Bool { waiting.isEmpty }

    mutating func hold(_ effects: [Effect]) { waiting += effects }

    private static func queue(_ effect: Effect) -> Int {
        switch effect {
        case .loadList, .locateInList, .loadTrash, .loadConflicts, .loadNote, .loadPreview, .loadHistory,
            .loadConflict, .loadNotebooks, .loadTags:
            0
        case .search: 1
        default: 2
        }
    }

    /// The kind a newer request of which makes this one stale (`EffectRunner.latest`).
    private static func latestOnlyKind(_ effect: Effect) -> Int? {
        switch effect {
        case .loadList: 0
        case .locateInList: 1
        case .search: 2
        case .loadTrash: 3
        default: nil
        }
    }

    /// One queue's next request runs (or is skipped as stale); its answer goes to `app`,
    /// and what the answer asks for waits in turn.
    mutating func answerOne(store: inout ModelStore, app: inout AppState, random: inout SeededRandom) {
        let queues = Set(waiting.map(Self.queue)).sorted()
        guard !queues.isEmpty else { return }
        let queue = queues[random.below(queues.count)]
        let index = waiting.firstIndex { Self.queue($0) == queue }!
        let effect = waiting.remove(at: index)
        if let kind = Self.latestOnlyKind(effect), waiting.contains(where: { Self.latestOnlyKind($0) == kind }),
            random.below(2) == 0
        {
            return
        }
        for action in store.answer(effect) {
            waiting += update(&app, action)
            if ProcessInfo.processInfo.environment["CLOUDNOTES_SELECTION_TRACE"] != nil {
                print(
                    "  answered \(effect) -> sel \(app.selection) \(String(describing: app.selectedID)) window \(app.listWindow.offset)+\(app.listWindow.rows.count) waiting \(waiting)"
                )
            }
        }
    }

    /// Everything waiting is answered, and what those answers ask for.
    mutating func settle(store: inout ModelStore, app: inout AppState, random: inout SeededRandom) {
        var steps = 0
        while !waiting.isEmpty {
            steps += 1
            precondition(steps < 10_000, "update and the store keep asking each other: \(waiting.prefix(3))")
            answerOne(store: &store, app: &app, random: &random)
        }
    }
}
