/// Posting lists: ascending document numbers as LEB128 varint gaps (the first as is).
enum Postings {
    static func encode(_ documents: some Collection<UInt32>, into bytes: inout [UInt8]) {
        var previous: UInt32 = 0
        var first = true
        for document in documents {
            appendVarint(first ? document : document - previous, to: &bytes)
            first = false
            previous = document
        }
    }

    static func appendVarint(_ value: UInt32, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Appends the documents of a list; throws `SearchIndexDamage` when the bytes are not a list
    /// our encoder writes (a varint over 32 bits or cut short, documents beyond 32 bits).
    static func decode(_ bytes: UnsafeRawBufferPointer, into documents: inout [UInt32]) throws {
        var reader = VarintReader(bytes)
        guard var previous = try reader.next() else { return }
        documents.append(previous)
        while let gap = try reader.next() {
            let (document, overflow) = previous.addingReportingOverflow(gap)
            guard !overflow else { throw SearchIndexDamage("a posting list runs past document 2^32") }
            documents.append(document)
            previous = document
        }
    }

    /// Sorted `a ∩ b`.
    static func intersect(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(min(a.count, b.count))
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if a[i] < b[j] {
                i += 1
            } else if a[i] > b[j] {
                j += 1
            } else {
                result.append(a[i])
                i += 1
                j += 1
            }
        }
        return result
    }

    /// Sorted, deduplicated `a ∪ b`.
    static func union(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            let next: UInt32
            if j == b.count || (i < a.count && a[i] < b[j]) {
                next = a[i]
                i += 1
            } else if i == a.count || b[j] < a[i] {
                next = b[j]
                j += 1
            } else {
                next = a[i]
                i += 1
                j += 1
            }
            if result.last != next { result.append(next) }
        }
        return result
    }

    /// Stable sort of (key << 32 | document) pairs by key (25 bits): two counting passes.
    static func sortByKey(_ pairs: inout [UInt64]) {
        var scratch = [UInt64](repeating: 0, count: pairs.count)
        var counts = [Int](repeating: 0, count: (1 << 13) + 1)
        pairs.withUnsafeMutableBufferPointer { pairs in
            scratch.withUnsafeMutableBufferPointer { scratch in
                counts.withUnsafeMutableBufferPointer { counts in
                    var source = pairs
                    var target = scratch
                    for (shift, bits) in [(UInt64(32), UInt64(13)), (45, 12)] {
                        let mask = (UInt64(1) << bits) - 1
                        counts.update(repeating: 0)
                        for pair in source { counts[Int((pair >> shift) & mask) + 1] += 1 }
                        for i in 1..<counts.count { counts[i] += counts[i - 1] }
                        for pair in source {
                            let bucket = Int((pair >> shift) & mask)
                            target[counts[bucket]] = pair
                            counts[bucket] += 1
                        }
                        swap(&source, &target)
                    }
                    // Two passes: the result is back in `pairs`.
                }
            }
        }
    }
}
