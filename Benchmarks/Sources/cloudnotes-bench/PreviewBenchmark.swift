import Foundation
import Ink
import NotesApp
import NotesCore
import TerminalUI

/// The preview pane's Markdown (`--preview`, issue 26): what `view` costs with a note previewed
/// raw and rendered (NotesApp's own reader, D-165), beside Ink (publish's
/// parser) turning the same text into HTML, for a note of a few kilobytes and one of 1 MB; and
/// the 1 MB note previewed at its last task and at a search match 5,000 lines down.
struct PreviewBenchmark {
    let size = Size(width: 100, height: 40)

    static let section = """
        # Launch plan

        Some **bold** words, some *italic* ones, `code`, a [link](https://example.com) and [[Other note]].

        - [ ] book the hall for the **whole** day
        - [x] send the invitations
          - nested item with more words in it, long enough to wrap in a narrow pane
        1. first
        2. second

        > A quote with _emphasis_ in it.

        ```swift
        let total = items.map { $0.price * $0.quantity }.reduce(0, +)
        ```

        | Item | Qty | Note |
        |:--|--:|:-:|
        | chairs | 40 | stacked |
        | tables | 8 | `round` |

        ---

        """

    func run() {
        print("== preview (NotesApp view at \(size.width)x\(size.height)) ==")
        let typical = String(repeating: Self.section, count: 6)
        let big = String(repeating: Self.section, count: 1_000_000 / Self.section.utf8.count) + "- [ ] the last task\n"
        for (label, body) in [("\(typical.utf8.count / 1000) kB note", typical), ("1 MB note", big)] {
            var state = previewing(body)
            state.previewShowsRaw = true
            let raw = median { _ = view(state, size) }
            state.previewShowsRaw = false
            let rendered = median { _ = view(state, size) }
            let ink = median(runs: body.utf8.count > 100_000 ? 3 : 20) { _ = MarkdownParser().html(from: body) }
            print(
                "\(label) (\(body.split(separator: "\n", omittingEmptySubsequences: false).count) lines): view raw "
                    + "\(Stats.f(raw, 2)) ms, rendered \(Stats.f(rendered, 2)) ms; Ink to HTML \(Stats.f(ink, 2)) ms")
        }
        let indexing = median(runs: 3) { _ = MarkdownIndex(big) }
        print("1 MB note: its MarkdownIndex (made once per preview, off the loop) \(Stats.f(indexing, 2)) ms")
        var last = previewing(big)
        last.taskIndex = max(0, (last.preview?.tasks.count ?? 1) - 1)
        _ = update(&last, .input(.char("]")))
        var unindexed = last
        unindexed.preview?.markdownIndex = nil
        let followUnindexed = median(runs: 5) { _ = view(unindexed, size) }
        print("1 MB note at its last task without the index: view rendered \(Stats.f(followUnindexed, 2)) ms")
        let follow = median(runs: 5) { _ = view(last, size) }
        last.previewShowsRaw = true
        let followRaw = median(runs: 5) { _ = view(last, size) }
        print(
            "1 MB note at its last task (line \(last.preview?.tasks.last?.line ?? 0)): view rendered "
                + "\(Stats.f(follow, 2)) ms, raw \(Stats.f(followRaw, 2)) ms")
        let searched = String(repeating: "plain line of words\n", count: 4_999) + "the zebra line\n" + big
        var search = previewing(searched)
        search.searchText = "zebra"
        _ = update(&search, .searchResults(query: "zebra", rows: search.listWindow.rows, limit: 100))
        let match = median(runs: 5) { _ = view(search, size) }
        search.previewShowsRaw = true
        let matchRaw = median(runs: 5) { _ = view(search, size) }
        print(
            "1 MB note with its match on line 5,000: view rendered \(Stats.f(match, 2)) ms, raw "
                + "\(Stats.f(matchRaw, 2)) ms")
    }

    /// The median time of `runs` calls of `body`, in milliseconds.
    func median(runs: Int = 20, _ body: () -> Void) -> Double {
        Stats.median((0..<runs).map { _ in Stats.time(body) })
    }

    /// A state with one note selected and previewed.
    func previewing(_ body: String, indexed: Bool = true) -> AppState {
        var state = AppState(now: Date(), size: size)
        let id = UUID()
        let row = NoteRow(id: id, title: "Plan", snippet: "", modifiedAt: Date(), isFavorite: false, syncState: .synced)
        _ = update(&state, .rowsLoaded(ListWindow(offset: 0, rows: [row], favoriteCount: 0, totalCount: 1)))
        _ = state.requestPreview()
        _ = update(
            &state,
            .previewLoaded(
                id,
                NoteContent(
                    id: id, title: "Plan", body: body, modifiedAt: row.modifiedAt, tasks: TaskItem.all(in: body))))
        if indexed { state.preview?.markdownIndex = MarkdownIndex(body) }
        return state
    }
}
