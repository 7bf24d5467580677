extension Buffer: CustomStringConvertible, CustomDebugStringConvertible {
    /// The screen as text, one quoted row per line, then the runs of non-plain styles, so a
    /// failing comparison shows both screens in a readable form.
    public var description: String {
        var out = "Buffer \(size)\n"
        for line in lines { out += "\"\(line)\"\n" }
        let styles = styleRuns
        if !styles.isEmpty {
            out += "styles:\n"
            for run in styles { out += "  row \(run.y) x \(run.x)..<\(run.end): \(run.style)\n" }
        }
        return out
    }

    public var debugDescription: String { description }

    /// Maximal runs of equal, non-plain style on each row.
    private var styleRuns: [(y: Int, x: Int, end: Int, style: Style)] {
        var runs: [(y: Int, x: Int, end: Int, style: Style)] = []
        for y in 0..<size.height {
            var x = 0
            while x < size.width {
                let style = self[x, y].style
                var end = x + 1
                while end < size.width && self[end, y].style == style { end += 1 }
                if style != .plain { runs.append((y, x, end, style)) }
                x = end
            }
        }
        return runs
    }
}
