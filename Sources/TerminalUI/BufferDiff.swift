/// The cells a backend must repaint to turn one screen into another.
///
/// Each run is a maximal stretch of changed cells on one row. Runs are widened so they never
/// start on the right half of a wide character (the terminal draws the whole character from
/// its left column) and never end between its halves. A backend paints a run's cells left to
/// right from `origin`, skipping continuation cells: the wide cell before each already drew it.
public struct BufferDiff: Equatable, Sendable {
    /// Consecutive cells of one row, starting at `origin`.
    public struct Run: Equatable, Sendable, CustomStringConvertible {
        public var origin: Point
        public var cells: [Cell]

        public init(origin: Point, cells: [Cell]) {
            self.origin = origin
            self.cells = cells
        }

        /// The run's text, a wide character once.
        public var text: String { cells.map(\.grapheme).joined() }

        public var description: String { "\(origin) \"\(text)\"" }
    }

    public var runs: [Run]
    /// The size of the new buffer.
    public var size: Size

    /// The runs that change `old` into `new`; every row of `new` when the sizes differ.
    public init(from old: Buffer, to new: Buffer) {
        runs = []
        size = new.size
        let width = new.size.width
        guard old.size == new.size else {
            for y in 0..<new.size.height where width > 0 {
                runs.append(Run(origin: Point(x: 0, y: y), cells: (0..<width).map { new[$0, y] }))
            }
            return
        }
        for y in 0..<new.size.height {
            var x = 0
            while x < width {
                if old[x, y] == new[x, y] {
                    x += 1
                    continue
                }
                // Buffers keep wide pairs whole, so a changed continuation comes with its changed
                // wide cell; the guard keeps a run from starting on a right half regardless.
                let start = new[x, y].isContinuation && x > 0 ? x - 1 : x
                var end = x + 1
                while end < width && old[end, y] != new[end, y] { end += 1 }
                if end < width && new[end, y].isContinuation { end += 1 }
                runs.append(Run(origin: Point(x: start, y: y), cells: (start..<end).map { new[$0, y] }))
                x = end
            }
        }
    }

    public var isEmpty: Bool { runs.isEmpty }

    /// Paints the runs onto `screen` as a terminal would, so that it becomes the new buffer
    /// (a screen of another size is first cleared to the new size, as a resize does).
    public func apply(to screen: inout Buffer) {
        if screen.size != size { screen = Buffer(size: size) }
        for run in runs {
            var x = run.origin.x
            for cell in run.cells {
                if !cell.isContinuation { screen.set(cell, at: Point(x: x, y: run.origin.y)) }
                x += 1
            }
        }
    }
}
