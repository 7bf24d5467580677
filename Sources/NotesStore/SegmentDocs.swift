import Foundation

/// A segment's document table: its sorted searchRowids as little-endian 64-bit integers.
enum SegmentDocs {
    static func encode(_ rowids: [Int64]) -> Data {
        rowids.map(\.littleEndian).withUnsafeBufferPointer { Data(buffer: $0) }
    }

    /// The table; throws `SearchIndexDamage` unless it is whole 64-bit integers, strictly
    /// ascending (what `encode` is given), which merging and lookups rely on.
    static func decode(_ data: Data) throws -> [Int64] {
        guard data.count % 8 == 0 else { throw SearchIndexDamage("a segment's document table is cut short") }
        let rowids = data.withUnsafeBytes { raw in
            [Int64](unsafeUninitializedCapacity: raw.count / 8) { buffer, count in
                for i in 0..<(raw.count / 8) {
                    buffer[i] = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8, as: Int64.self))
                }
                count = raw.count / 8
            }
        }
        guard zip(rowids, rowids.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw SearchIndexDamage("a segment's document table is out of order")
        }
        return rowids
    }

    /// Position of `rowid` in the sorted `rowids`.
    static func index(of rowid: Int64, in rowids: [Int64]) -> Int? {
        let position = lowerBound(rowid, in: rowids)
        return position < rowids.count && rowids[position] == rowid ? position : nil
    }

    /// First position whose rowid is >= `rowid`.
    static func lowerBound(_ rowid: Int64, in rowids: [Int64]) -> Int {
        var low = 0
        var high = rowids.count
        while low < high {
            let mid = (low + high) / 2
            if rowids[mid] < rowid { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
