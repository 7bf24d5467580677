import Foundation

/// Our own line diff (SYNC-FORMAT rule 8), used by `TextMerge`. The toolchain's
/// `difference(from:)` is not used on purpose: its output may change between Swift versions,
/// and a merge must give every device the same bytes, hence the same revision id.
///
/// - Lines: a line is the bytes up to and including `\n` (so a CRLF line ends in `\r\n`,
///   and a lone `\r` is an ordinary byte); the last line may have no terminator. Empty
///   text has no lines. Concatenating the lines gives the text's bytes back exactly.
/// - Equality: lines are equal when their UTF-8 bytes are, never by Swift's `==` (canonical
///   equivalence), so an NFC line and its NFD spelling are different lines.
/// - Algorithm: the common prefix and suffix are matched first; the middle is diffed with
///   Myers' greedy O(ND) algorithm ("An O(ND) Difference Algorithm and Its Variations",
///   1986), forward search, keeping the band of each step for the backtrack (memory
///   O(D²)). On a tie the path that came from the diagonal above (an insertion) is preferred
///   when it reaches as far; see `myers`. If the middle needs more than `maxEditDistance`
///   edits the middle is reported as wholly replaced (no matches): still deterministic and
///   safe for a merge (it can only add conflicts, never lose text), and it bounds the cost.
/// The output of this type for given inputs is pinned by `TextMerge.mergeAlgoVersion`.
public enum LineDiff {
    /// Above this many line edits (after the common prefix and suffix) the middle is treated
    /// as replaced wholesale. Part of the pinned behaviour of `mergeAlgoVersion` 1.
    public static let maxEditDistance = 2048

    /// The lines of `text`, each with its terminator, as UTF-8 bytes.
    public static func lines(_ text: String) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in text.utf8 {
            current.append(byte)
            if byte == UInt8(ascii: "\n") {
                result.append(current)
                current = []
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// The text made of `lines` (the inverse of `lines(_:)`).
    public static func join<S: Sequence>(_ lines: S) -> String where S.Element == [UInt8] {
        var bytes: [UInt8] = []
        for line in lines { bytes += line }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One change: the lines `old` of the old text are replaced by the lines `new` of the new
    /// text (either range may be empty, but not both). Hunks are in order and do not touch.
    public struct Hunk: Sendable, Equatable {
        public var old: Range<Int>
        public var new: Range<Int>
        public init(old: Range<Int>, new: Range<Int>) {
            self.old = old
            self.new = new
        }
    }

    /// The changes that turn `old` into `new`, by line.
    public static func hunks(from old: String, to new: String) -> [Hunk] {
        var table = LineTable()
        let a = table.ids(lines(old))
        let b = table.ids(lines(new))
        return hunks(matches: matches(a, b), oldCount: a.count, newCount: b.count)
    }

    /// Hunks from the matched pairs of a diff.
    static func hunks(matches: [(Int, Int)], oldCount: Int, newCount: Int) -> [Hunk] {
        var result: [Hunk] = []
        var i = 0
        var j = 0
        for (mi, mj) in matches + [(oldCount, newCount)] {
            if mi > i || mj > j { result.append(Hunk(old: i..<mi, new: j..<mj)) }
            i = mi + 1
            j = mj + 1
        }
        return result
    }

    /// The lines (0-based, as `lines(_:)` numbers them) of `a` and of `b` that a shortest edit
    /// script does not match: what the conflict resolver highlights on each side.
    public static func differingLines(_ a: String, _ b: String) -> (a: Set<Int>, b: Set<Int>) {
        var table = LineTable()
        // A line without its terminator compares equal to the same line with one.
        func trimmed(_ text: String) -> [[UInt8]] {
            lines(text).map { line in
                var line = line
                if line.last == UInt8(ascii: "\n") { line.removeLast() }
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return line
            }
        }
        let idsA = table.ids(trimmed(a))
        let idsB = table.ids(trimmed(b))
        var differA = Set(idsA.indices)
        var differB = Set(idsB.indices)
        for (i, j) in matches(idsA, idsB) {
            differA.remove(i)
            differB.remove(j)
        }
        return (differA, differB)
    }

    /// Interns lines so they compare as integers; equal ids mean equal bytes.
    struct LineTable {
        private var ids: [[UInt8]: Int] = [:]
        mutating func ids(_ lines: [[UInt8]]) -> [Int] {
            lines.map { line in
                if let id = ids[line] { return id }
                let id = ids.count
                ids[line] = id
                return id
            }
        }
    }

    /// The matched pairs (index in `a`, index in `b`) of a shortest edit script, increasing
    /// in both indices.
    static func matches(_ a: [Int], _ b: [Int]) -> [(Int, Int)] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix,
            a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
        {
            suffix += 1
        }
        var result: [(Int, Int)] = (0..<prefix).map { ($0, $0) }
        let midA = Array(a[prefix..<(a.count - suffix)])
        let midB = Array(b[prefix..<(b.count - suffix)])
        if !midA.isEmpty && !midB.isEmpty, let mid = myers(midA, midB, maxD: maxEditDistance) {
            result += mid.map { ($0.0 + prefix, $0.1 + prefix) }
        }
        result += (0..<suffix).map { (a.count - suffix + $0, b.count - suffix + $0) }
        return result
    }

    /// Myers' greedy forward search; nil when more than `maxD` edits are needed.
    ///
    /// `v[k]` is the furthest x on diagonal k = x - y. Step d moves from diagonal k+1 (down:
    /// insert b[y]) when k == -d, or when k != d and v[k-1] < v[k+1]; otherwise from k-1
    /// (right: delete a[x]). Then it follows the snake of equal lines.
    static func myers(_ a: [Int], _ b: [Int], maxD: Int) -> [(Int, Int)]? {
        let n = a.count
        let m = b.count
        let limit = min(n + m, maxD)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        // bands[d] holds v[-(d-1)...(d-1)] as it was before step d (for d >= 1).
        var bands: [[Int]] = [[]]
        var finalD = -1
        search: for d in 0...limit {
            if d > 0 { bands.append(Array(v[(offset - d + 1)...(offset + d - 1)])) }
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if d == 0 {
                    x = 0
                } else if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n && y >= m {
                    finalD = d
                    break search
                }
            }
        }
        guard finalD >= 0 else { return nil }
        // Backtrack from (n, m).
        var pairs: [(Int, Int)] = []
        var x = n
        var y = m
        var d = finalD
        while d >= 0 {
            let k = x - y
            var prevX = 0
            var prevY = 0
            var snakeStart = 0  // x where the edit of step d ended and the snake began
            if d > 0 {
                let band = bands[d]
                func at(_ kk: Int) -> Int { band[kk + d - 1] }
                let down = k == -d || (k != d && at(k - 1) < at(k + 1))
                let prevK = down ? k + 1 : k - 1
                prevX = at(prevK)
                prevY = prevX - prevK
                snakeStart = down ? prevX : prevX + 1
            }
            while x > snakeStart {
                x -= 1
                y -= 1
                pairs.append((x, y))
            }
            if d == 0 { break }
            x = prevX
            y = prevY
            d -= 1
        }
        return pairs.reversed()
    }
}
