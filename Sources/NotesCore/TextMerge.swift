import Foundation

/// Three-way merge of note bodies (diff3), SYNC-FORMAT rule 8.
///
/// A pure function of (ancestor, the two heads in rev-id order, their labels): every device
/// computes the same bytes, hence the same merged revision id.
///
/// - Both heads are diffed against the base with `LineDiff`. Base lines matched in both
///   heads split the texts into stable chunks (kept) and unstable chunks between them.
/// - An unstable chunk changed on one side only takes that side; changed identically on
///   both sides is taken once (not a conflict); changed differently on both sides is a
///   conflict, and both sides are kept verbatim between markers, never a union merge:
///
///       <<<<<<< oursLabel
///       ours' lines
///       =======
///       theirs' lines
///       >>>>>>> theirsLabel
///
///   Edits on adjacent lines (no unchanged line between them) are one unstable chunk, so
///   they conflict, as in diff3 and git.
/// - Symmetric: chunk boundaries do not depend on which side is "ours", so swapping the two
///   sides with their labels gives the same text outside conflicts and mirror-image markers.
/// - Idempotent: merge(b, x, x) == x, merge(b, b, x) == x, merge(b, x, b) == x, byte for byte.
/// - Bytes: lines keep their terminators; a side's line without a final newline inside a
///   conflict gets a newline before the next marker line (the only bytes added besides the
///   markers). Marker lines end in `\r\n` when every terminated line of both heads does
///   (and there is one), else `\n`. CR and LF in a label are replaced by spaces.
public enum TextMerge {
    /// Pins the merge output: version 1 is `LineDiff` as documented there (prefix/suffix
    /// trim, Myers greedy O(ND) with its tie-break and `LineDiff.maxEditDistance`), the
    /// diff3 chunking and the marker format above. Any change to any of these that can change
    /// a merged byte must bump this number, since devices on different versions would otherwise
    /// compute different revision ids. It is not written into revisions or batches (format v1
    /// has no field for it): a bump must come with a format version that older builds refuse.
    public static let mergeAlgoVersion = 1

    public static let oursMarker = "<<<<<<<"
    public static let separatorMarker = "======="
    public static let theirsMarker = ">>>>>>>"

    /// Merges `ours` and `theirs`, both descended from `base`.
    public static func merge(
        base: String, ours: String, theirs: String, oursLabel: String, theirsLabel: String
    ) -> (text: String, hasConflicts: Bool) {
        var table = LineDiff.LineTable()
        let baseLines = LineDiff.lines(base)
        let oursLines = LineDiff.lines(ours)
        let theirsLines = LineDiff.lines(theirs)
        let o = table.ids(baseLines)
        let a = table.ids(oursLines)
        let b = table.ids(theirsLines)

        // For each base line, the matching line in ours / theirs, if any.
        var matchA = [Int?](repeating: nil, count: o.count)
        for (i, j) in LineDiff.matches(o, a) { matchA[i] = j }
        var matchB = [Int?](repeating: nil, count: o.count)
        for (i, j) in LineDiff.matches(o, b) { matchB[i] = j }

        let eol: [UInt8] = usesCRLF(oursLines, theirsLines) ? [13, 10] : [10]
        var out: [UInt8] = []
        var conflicts = false

        func emit(_ lines: ArraySlice<[UInt8]>) { for line in lines { out += line } }
        func unstable(_ ro: Range<Int>, _ ra: Range<Int>, _ rb: Range<Int>) {
            let co = o[ro]
            let ca = a[ra]
            let cb = b[rb]
            if ca.elementsEqual(co) {
                emit(theirsLines[rb])
            } else if cb.elementsEqual(co) || ca.elementsEqual(cb) {
                emit(oursLines[ra])
            } else {
                conflicts = true
                out += marker(oursMarker, oursLabel, eol)
                emitTerminated(oursLines[ra], eol, into: &out)
                out += Array(separatorMarker.utf8) + eol
                emitTerminated(theirsLines[rb], eol, into: &out)
                out += marker(theirsMarker, theirsLabel, eol)
            }
        }

        // Khanna–Kunal–Pierce diff3 chunking. lo, la, lb: next unconsumed line of each text.
        var lo = 0
        var la = 0
        var lb = 0
        while true {
            // Length of the stable run starting here.
            var i = 0
            while lo + i < o.count, matchA[lo + i] == la + i, matchB[lo + i] == lb + i { i += 1 }
            if i > 0 {
                emit(oursLines[la..<(la + i)])
                lo += i
                la += i
                lb += i
                continue
            }
            // Unstable: up to the next base line matched in both heads.
            var next = lo
            while next < o.count, matchA[next] == nil || matchB[next] == nil { next += 1 }
            // Past the loop, a `next` inside the base is matched in both heads.
            guard next < o.count, let na = matchA[next], let nb = matchB[next] else {
                if lo < o.count || la < a.count || lb < b.count {
                    unstable(lo..<o.count, la..<a.count, lb..<b.count)
                }
                break
            }
            unstable(lo..<next, la..<na, lb..<nb)
            lo = next
            la = na
            lb = nb
        }
        return (String(decoding: out, as: UTF8.self), conflicts)
    }

    private static func usesCRLF(_ x: [[UInt8]], _ y: [[UInt8]]) -> Bool {
        var any = false
        for line in x + y where line.last == 10 {
            guard line.count >= 2, line[line.count - 2] == 13 else { return false }
            any = true
        }
        return any
    }

    private static func marker(_ marker: String, _ label: String, _ eol: [UInt8]) -> [UInt8] {
        var clean = String.UnicodeScalarView()
        for scalar in label.unicodeScalars { clean.append(scalar == "\r" || scalar == "\n" ? " " : scalar) }
        return Array((clean.isEmpty ? marker : marker + " " + String(clean)).utf8) + eol
    }

    /// The lines, with `eol` after a last line that has no terminator.
    private static func emitTerminated(_ lines: ArraySlice<[UInt8]>, _ eol: [UInt8], into out: inout [UInt8]) {
        for line in lines { out += line }
        if let last = lines.last, last.last != 10 { out += eol }
    }
}
