/// Posting lists: ascending document numbers as LEB128 varint gaps (the first as is), or, when
/// that is shorter (a key that more than about one document in eight of its segment has), as a
/// bitmap (D-230): the two bytes `bitmapMarker`, then bit `d % 8` of byte `d / 8` set for each
/// document `d`. The marker is an overlong varint of 0, which the varint form never starts with
/// (its encoder writes no overlong varint), so lists stored before bitmaps read as they were.
enum Postings {
    static let bitmapMarker: [UInt8] = [0x80, 0x00]

    /// Appends `documents` (ascending, distinct) in the shorter of the two forms (varint gaps
    /// when both are as long, and for a list with a document twice, which only gaps can say:
    /// whatever a damaged list decodes to encodes back to it).
    static func encode(_ documents: some BidirectionalCollection<UInt32>, into bytes: inout [UInt8]) {
        guard let last = documents.last else { return }
        let bitmapCount = bitmapByteCount(last: last)
        // More documents than the bitmap has bytes: gaps would take more (a byte each at least).
        if documents.count > bitmapCount, appendBitmap(documents, count: bitmapCount, into: &bytes) { return }
        let start = bytes.count
        guard let (_, distinct) = encodeGaps(documents, into: &bytes), distinct, bytes.count - start > bitmapCount
        else { return }
        bytes.removeSubrange(start...)
        appendBitmap(documents, count: bitmapCount, into: &bytes)
    }

    /// Appends `documents` as a bitmap of `count` bytes with its marker; false, with `bytes` as
    /// they were, when a document comes twice.
    @discardableResult
    private static func appendBitmap(
        _ documents: some Collection<UInt32>, count: Int, into bytes: inout [UInt8]
    ) -> Bool {
        let start = bytes.count
        bytes.append(contentsOf: bitmapMarker)
        let base = bytes.count
        bytes.appendZeros(count - bitmapMarker.count)
        for document in documents {
            let bit: UInt8 = 1 << (document % 8)
            let index = base + Int(document / 8)
            guard bytes[index] & bit == 0 else {
                bytes.removeSubrange(start...)
                return false
            }
            bytes[index] |= bit
        }
        return true
    }

    /// Appends `documents` (ascending) as varint gaps, whatever their length; returns the last
    /// document and whether no document came twice (nil: none).
    @discardableResult
    static func encodeGaps(
        _ documents: some Collection<UInt32>, into bytes: inout [UInt8]
    ) -> (last: UInt32, distinct: Bool)? {
        var previous: UInt32 = 0
        var first = true
        var distinct = true
        for document in documents {
            if !first && document == previous { distinct = false }
            appendVarint(first ? document : document - previous, to: &bytes)
            first = false
            previous = document
        }
        return first ? nil : (previous, distinct)
    }

    /// The length of a bitmap whose last document is `last`, its marker included.
    static func bitmapByteCount(last: UInt32) -> Int { bitmapMarker.count + Int(last / 8) + 1 }

    /// The bytes of a bitmap list after its marker (`isBitmap`). Every byte is eight documents,
    /// so no bitmap is malformed; one past 2^32 documents is, and throws `SearchIndexDamage`.
    static func bitmapBits(_ bytes: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer {
        let bits = UnsafeRawBufferPointer(rebasing: bytes[bitmapMarker.count...])
        guard bits.count <= Int(UInt32.max / 8) else {
            throw SearchIndexDamage("a posting bitmap runs past document 2^32")
        }
        return bits
    }

    /// Whether a stored list is a bitmap.
    static func isBitmap(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == bitmapMarker[0] && bytes[1] == bitmapMarker[1]
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
        if isBitmap(bytes) {
            let bits = try bitmapBits(bytes)
            for index in 0..<bits.count {
                var byte = bits[index]
                let base = UInt32(index) * 8
                while byte != 0 {
                    documents.append(base + UInt32(byte.trailingZeroBitCount))
                    byte &= byte - 1
                }
            }
            return
        }
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
