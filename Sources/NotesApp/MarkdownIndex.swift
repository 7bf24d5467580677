import Foundation

/// Where the preview's Markdown reader stands every `spacing` lines of a note's body, found
/// once per loaded preview, off the loop (`EffectRunner`'s `loadPreview`), so that a pane deep
/// in a long note (its last task, a late search match) starts reading at the checkpoint before
/// it instead of at the top (D-165).
public struct MarkdownIndex: Equatable, Sendable {
    /// Lines between checkpoints: a view reads at most this many lines it does not show.
    static let spacing = 256

    var checkpoints: [MarkdownPreview.Checkpoint] = []

    /// The checkpoints of `body`.
    public init(_ body: String) {
        var reader = MarkdownPreview(body, theme: .standard, ascii: false, maxCharacters: 1, renderFrom: .max)
        var next = Self.spacing
        while true {
            if let checkpoint = reader.checkpoint, checkpoint.line >= next {
                checkpoints.append(checkpoint)
                next = checkpoint.line + Self.spacing
            }
            guard reader.next() != nil else { break }
        }
    }

    /// The last checkpoint at or before `line`.
    func checkpoint(before line: Int) -> MarkdownPreview.Checkpoint? {
        var low = 0
        var high = checkpoints.count
        while low < high {
            let middle = (low + high) / 2
            if checkpoints[middle].line <= line { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? checkpoints[low - 1] : nil
    }
}
