import Foundation
import NotesApp
import NotesCore
import TerminalUI

/// Editor benchmarks (`--editor`): the app's pure core (`update` then `view`, what a keystroke
/// costs before painting) on a 10 MB note, and pastes into the editor pane: 3,000 lines as one
/// bracketed paste, and 1 MB. The wall-clock bounds that used to sit in unit tests live here.
struct EditorBenchmark {
    let size = Size(width: 100, height: 40)

    func run() {
        print("== editor (NotesApp update + view at \(size.width)x\(size.height)) ==")
        bigNote()
        paste(lines: 3_000)
        paste(lines: 1_000_000 / 64)
    }

    /// A state with one note open in the editor pane.
    func opened(body: String) -> AppState {
        var state = AppState(now: Date(), size: size)
        let id = UUID()
        let row = NoteRow(id: id, title: "Big", snippet: "", modifiedAt: Date(), isFavorite: false, syncState: .synced)
        _ = update(&state, .rowsLoaded(ListWindow(offset: 0, rows: [row], favoriteCount: 0, totalCount: 1)))
        _ = update(&state, .input(.key(.enter)))
        _ = update(
            &state, .noteLoaded(NoteContent(id: id, title: "Big", body: body, modifiedAt: Date(), headRevision: "r1")))
        return state
    }

    func bigNote() {
        let line = "Some words of a long note, with 中文 and emoji 👍 in it, and more words.\n"
        let body = String(repeating: line, count: 10_000_000 / line.utf8.count)
        var state = AppState(now: Date(), size: size)
        let load = Stats.time { state = opened(body: body) }
        _ = update(&state, .input(.key(.pageDown)))
        var keystrokes: [Double] = []
        for character in "typing in the middle of the note" {
            keystrokes.append(
                Stats.time {
                    _ = update(&state, .input(.char(character)))
                    _ = view(state, size)
                })
        }
        let end = Stats.time {
            _ = update(&state, .input(.key(.end, modifiers: .control)))
            _ = view(state, size)
        }
        let leave = Stats.time { _ = update(&state, .input(.key(.escape))) }
        print(
            "10 MB note (\(body.utf8.count / 1000) kB, \(body.utf8.count / line.utf8.count) lines): open \(Stats.f(load)) ms; "
                + "keystroke + view median \(Stats.f(Stats.median(keystrokes), 2)) ms, p99 "
                + "\(Stats.f(Stats.percentile(keystrokes, 99), 2)) ms (\(keystrokes.count) keys); Ctrl-End \(Stats.f(end, 2)) ms; "
                + "leave (save) \(Stats.f(leave)) ms")
    }

    func paste(lines: Int) {
        let line = "pasted line with words, 中文 and 👩‍💻, long enough to wrap maybe\n"
        let text = String(repeating: line, count: lines)
        var times: [Double] = []
        for _ in 0..<5 {
            var state = opened(body: "body\n")
            times.append(
                Stats.time {
                    _ = update(&state, .input(.paste(text)))
                    _ = view(state, size)
                })
        }
        print(
            "paste of \(lines) lines (\(text.utf8.count / 1000) kB) as one bracketed paste, + view: median "
                + "\(Stats.f(Stats.median(times), 2)) ms of 5 (max \(Stats.f(times.max() ?? .nan, 2)) ms)")
    }
}
