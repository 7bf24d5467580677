import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// Saving that cannot be starved (issue 22, item 1): typing that never pauses for the quiet
/// delay is saved at least every `autosaveMaxWait`, on a virtual clock.
@Suite struct EditorMaxWaitTests {
    /// The app on a virtual clock: timers fire when their time comes, and each save is
    /// answered `saveLatency` after it was asked for, as the store would.
    struct Timeline {
        var state: AppState
        var now = Duration.zero
        let saveLatency: Duration
        /// Timers and save answers waiting, in the order they were asked for.
        private var waiting: [(at: Duration, action: Action)] = []
        private var revision = 1
        /// When each save was asked for, and its text.
        private(set) var saves: [(at: Duration, text: String)] = []
        /// The text the store holds: what a crash now would leave.
        private(set) var stored: String

        init(_ state: AppState, saveLatency: Duration) {
            self.state = state
            self.saveLatency = saveLatency
            stored = state.editor.loaded?.text ?? ""
        }

        mutating func send(_ action: Action) {
            for effect in update(&state, action) {
                switch effect {
                case .scheduleTimer(let timer, let delay):
                    waiting.append((now + delay, .timerFired(timer)))
                case .saveNote(let id, let title, let body, _):
                    let text = title + "\n" + body
                    saves.append((now, text))
                    revision += 1
                    let saved = SavedNote(
                        id: id, title: title, body: body, headRevision: "r\(revision)", modifiedAt: testNow)
                    waiting.append((now + saveLatency, .noteSaved(saved)))
                default:
                    break
                }
            }
        }

        /// Moves the clock to `time`, delivering what falls due on the way, in time order.
        mutating func advance(to time: Duration) {
            while let next = waiting.indices.filter({ waiting[$0].at <= time }).min(by: {
                waiting[$0].at < waiting[$1].at
            }) {
                let (at, action) = waiting.remove(at: next)
                now = at
                if case .noteSaved(let saved) = action { stored = saved.title + "\n" + saved.body }
                send(action)
            }
            now = time
        }
    }

    func typeWithoutPause(saveLatency: Duration) -> (timeline: Timeline, typed: [(at: Duration, text: String)]) {
        var state = AppState.editing(
            NoteContent(id: noteID(1), title: "Draft", body: "start", modifiedAt: testNow, headRevision: "r1"))
        _ = send("<C-End>", to: &state)
        var timeline = Timeline(state, saveLatency: saveLatency)
        var typed: [(at: Duration, text: String)] = []
        // One key every 0.3 s for 15 s: never the 1.5 s of quiet the debounce waits for.
        for index in 0..<50 {
            let at = Duration.milliseconds(300 * index)
            timeline.advance(to: at)
            timeline.send(.key(Character(UnicodeScalar(UInt8(97 + index % 26)))))
            typed.append((at, timeline.state.editor.loaded?.text ?? ""))
        }
        timeline.advance(to: .seconds(15))
        return (timeline, typed)
    }

    /// What a crash at `time` keeps: all that was typed up to `autosaveMaxWait` (plus the
    /// save's own time) before it.
    func expectAtMostTheMaximumWaitLost(
        _ timeline: Timeline, _ typed: [(at: Duration, text: String)], bound: Duration,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let stored = timeline.stored
        let due = typed.last { $0.at <= timeline.now - bound }
        #expect(
            due.map { stored.hasPrefix($0.text) } ?? true,
            "a crash at \(timeline.now) keeps \(stored.debugDescription); typed by \(due?.at ?? .zero): \(due?.text.debugDescription ?? "")",
            sourceLocation: sourceLocation)
    }

    @Test func typingThatNeverPausesIsSavedAtLeastEveryMaximumWait() {
        let (timeline, typed) = typeWithoutPause(saveLatency: .zero)
        let times = timeline.saves.map(\.at)
        // Saves at 5 s, 10.2 s (5 s after the first key after the first save), …
        #expect(times.count >= 2, "saves at \(times)")
        #expect(times.first.map { $0 <= .seconds(5) } == true, "saves at \(times)")
        for (a, b) in zip(times, times.dropFirst()) {
            #expect(b - a <= .seconds(5) + .milliseconds(300), "saves at \(times)")
        }
        // A crash at 15 s keeps what was typed by 10 s (before the fix: nothing).
        expectAtMostTheMaximumWaitLost(timeline, typed, bound: .seconds(5) + .milliseconds(300))
        #expect(timeline.stored.count >= "Draft\nstart".count + 33, "stored \(timeline.stored.debugDescription)")
    }

    /// The maximum wait passes while a slow save (a big note) is running: the typing since
    /// is saved as soon as that save is answered, not a whole wait later.
    @Test func aDeadlineThatPassesDuringASlowSaveSavesWhenItIsAnswered() {
        let latency = Duration.seconds(2)
        var state = AppState.editing(
            NoteContent(id: noteID(1), title: "Draft", body: "start", modifiedAt: testNow, headRevision: "r1"))
        _ = send("<C-End>", to: &state)
        var timeline = Timeline(state, saveLatency: latency)
        for index in 0..<50 {
            timeline.advance(to: .milliseconds(300 * index))
            timeline.send(.key("x"))
            // Every crash moment keeps what was typed a maximum wait plus a save's time before.
            let typedBefore = max(0, index - Int((Duration.seconds(5) + latency * 2) / .milliseconds(300)))
            #expect(timeline.stored.count >= "Draft\nstart".count + typedBefore, "at \(timeline.now)")
        }
        #expect(timeline.saves.count >= 2, "saves at \(timeline.saves.map(\.at))")
    }

    @Test func theMaximumWaitIsConfiguredAndStartsOnlyOnceBetweenSaves() {
        var state = AppState.editing(
            NoteContent(id: noteID(1), title: "Draft", body: "", modifiedAt: testNow, headRevision: "r1"))
        state.autosaveMaxWait = .seconds(30)
        #expect(
            send("a", to: &state) == [
                .scheduleTimer(.autosave(generation: 1), after: .milliseconds(1500)),
                .scheduleTimer(.autosaveDeadline(generation: 1), after: .seconds(30)),
            ])
        // The next keys move only the quiet delay.
        #expect(send("b", to: &state) == [.scheduleTimer(.autosave(generation: 2), after: .milliseconds(1500))])
        #expect(
            update(&state, .timerFired(.autosaveDeadline(generation: 1))) == [
                .saveNote(id: noteID(1), title: "abDraft", body: "", baseRevision: "r1")
            ])
        // After a save was sent, the next change starts the wait again.
        #expect(
            send("c", to: &state) == [
                .scheduleTimer(.autosave(generation: 3), after: .milliseconds(1500)),
                .scheduleTimer(.autosaveDeadline(generation: 2), after: .seconds(30)),
            ])
    }
}
