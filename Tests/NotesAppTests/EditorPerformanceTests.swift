import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// A 10 MB note must stay usable: a keystroke costs the lines on screen, not the whole text.
/// Bounds are generous (debug build, a shared machine); the figures are printed.
@Suite struct EditorPerformanceTests {
    @Test func typingAndRepaintingInATenMegabyteNote() {
        let line = "Some words of a long note, with 中文 and emoji 👍 in it, and more words.\n"
        let body = String(repeating: line, count: 10_000_000 / line.utf8.count)
        let clock = ContinuousClock()
        var state = AppState.fixture(size: Size(width: 100, height: 40))
        _ = update(&state, .input(.key(.enter)))
        let load = clock.measure {
            _ = update(
                &state,
                .noteLoaded(
                    NoteContent(id: noteID(1), title: "Big", body: body, modifiedAt: testNow, headRevision: "r1")))
        }
        _ = update(&state, .input(.key(.pageDown)))
        var keystrokes: [Duration] = []
        for character in "typing in the middle" {
            keystrokes.append(
                clock.measure {
                    _ = update(&state, .key(character))
                    _ = view(state, Size(width: 100, height: 40))
                })
        }
        let motion = clock.measure {
            _ = update(&state, .input(.key(.end, modifiers: .control)))
            _ = view(state, Size(width: 100, height: 40))
        }
        let save = clock.measure { _ = update(&state, .input(.key(.escape))) }
        keystrokes.sort()
        let median = keystrokes[keystrokes.count / 2]
        let worst = keystrokes.last!
        print(
            "10 MB note (debug build): load \(load), keystroke+repaint median \(median) max \(worst), "
                + "Ctrl-End \(motion), save (join + compare) \(save)")
        #expect(state.editor?.text?.contains("typing in the middle") == true)
        #expect(worst < .milliseconds(250), "keystroke took \(worst)")
        #expect(load < .seconds(10))
    }
}
