/// Builds one segment from its documents and their keys, off the writer's thread: the sorted
/// distinct rowids, and per key (ascending) its encoded posting list. A rowid queued twice
/// (reused inside a transaction) is one document with both key sets: more candidates, never
/// fewer.
enum SegmentSort {
    struct Output: Sendable {
        var documents: [Int64] = []
        var keys: [UInt32] = []
        /// Posting list i is bytes[ends[i - 1] ..< ends[i]] (from 0 for the first).
        var ends: [Int] = []
        var bytes: [UInt8] = []
    }

    /// A batch's segment sorted before its rowids are known (`NoteStore.importNotes` sorts
    /// the next batch off the writer's thread): the documents are numbered in the order they
    /// will be written, which is their rowids' order when an import writes them oldest first.
    struct Ahead: Sendable {
        /// Each document's keys, as they were sorted.
        let keys: [[UInt32]]
        /// The segment, its documents numbered 0, 1, ….
        let numbered: Output

        init(keys: [[UInt32]]) {
            self.keys = keys
            numbered = SegmentSort.sort(
                rowids: keys.indices.map(Int64.init), keys: keys, keyCount: keys.reduce(0) { $0 + $1.count })
        }

        /// The segment of `rowids` with these `keys`, when it is this one renumbered: the same
        /// documents' keys (as a rule the same arrays, which compare equal without reading
        /// their elements), in ascending rowids. Else nil, and the caller sorts.
        func segment(rowids: [Int64], keys documentKeys: [[UInt32]]) -> Output? {
            guard rowids.count == keys.count, zip(rowids, rowids.dropFirst()).allSatisfy({ $0 < $1 }),
                zip(documentKeys, keys).allSatisfy({ $0 == $1 })
            else { return nil }
            var output = numbered
            output.documents = rowids
            return output
        }
    }

    static func sort(rowids: [Int64], keys: [[UInt32]], keyCount: Int) -> Output {
        // Imports and rebuilds come in rowid order already.
        let ascending = zip(rowids, rowids.dropFirst()).allSatisfy { $0 <= $1 }
        let order = ascending ? Array(rowids.indices) : rowids.indices.sorted { rowids[$0] < rowids[$1] }
        var output = Output()
        output.documents.reserveCapacity(rowids.count)
        var pairs = [UInt64](repeating: 0, count: keyCount)
        pairs.withUnsafeMutableBufferPointer { pairs in
            var next = 0
            for i in order {
                if output.documents.last != rowids[i] { output.documents.append(rowids[i]) }
                let number = UInt64(output.documents.count - 1)
                for key in keys[i] {
                    pairs[next] = UInt64(key) << 32 | number
                    next += 1
                }
            }
        }
        Postings.sortByKey(&pairs)
        var documents: [UInt32] = []
        var start = 0
        while start < pairs.count {
            let key = pairs[start] >> 32
            var end = start
            documents.removeAll(keepingCapacity: true)
            while end < pairs.count, pairs[end] >> 32 == key {
                let document = UInt32(truncatingIfNeeded: pairs[end])
                if documents.last != document { documents.append(document) }
                end += 1
            }
            Postings.encode(documents, into: &output.bytes)
            output.keys.append(UInt32(key))
            output.ends.append(output.bytes.count)
            start = end
        }
        return output
    }
}
