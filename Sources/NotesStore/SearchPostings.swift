/// The building blocks of the search index (`SearchIndex`): byte trigram keys, the distinct
/// keys of one text, and posting lists as varint gaps.
///
/// A key is three consecutive bytes of folded UTF-8 text (24 bits), plus `titleSpace` for the
/// keys of titles. Every field is read as if followed by two 0xFF bytes (which UTF-8 never
/// contains), so every position of the text starts a key: a term of one or two bytes is found
/// through the keys that begin with it, a term of three or more bytes through all of its own.
enum SearchKeys {
    /// Keys of titles (tier 0) live above the 24 bits of a trigram.
    static let titleSpace: UInt32 = 1 << 24
    /// Exclusive upper bound of every key.
    static let limit: UInt32 = 1 << 25
    /// The byte that pads every field (never part of UTF-8).
    static let pad: UInt32 = 0xFF

    /// Adds the keys of `bytes` (padded) in `space` to `set`.
    static func collect(_ bytes: UnsafeBufferPointer<UInt8>, space: UInt32, into set: inout KeySet) {
        let n = bytes.count
        guard n > 0 else { return }
        var key = UInt32(bytes[0]) << 8 | (n > 1 ? UInt32(bytes[1]) : pad)
        var i = 2
        while i < n {
            key = (key << 8 | UInt32(bytes[i])) & 0xFF_FFFF
            set.insert(key | space)
            i += 1
        }
        // The last two windows run into the padding (for n == 1, only the window of the pad).
        for _ in 0..<min(2, n) {
            key = (key << 8 | pad) & 0xFF_FFFF
            set.insert(key | space)
        }
    }

    /// The distinct keys of a term of three or more bytes (empty for a shorter one).
    static func keys(ofTerm term: [UInt8], space: UInt32) -> [UInt32] {
        guard term.count >= 3 else { return [] }
        var seen = Set<UInt32>()
        var result: [UInt32] = []
        for i in 0...(term.count - 3) {
            let key = (UInt32(term[i]) << 16 | UInt32(term[i + 1]) << 8 | UInt32(term[i + 2])) | space
            if seen.insert(key).inserted { result.append(key) }
        }
        return result
    }

    /// The range of keys that begin with a term of one or two bytes.
    static func prefixRange(ofTerm term: [UInt8], space: UInt32) -> Range<UInt32> {
        precondition((1...2).contains(term.count))
        if term.count == 1 {
            let low = UInt32(term[0]) << 16 | space
            return low..<(low + (1 << 16))
        }
        let low = UInt32(term[0]) << 16 | UInt32(term[1]) << 8 | space
        return low..<(low + (1 << 8))
    }
}

/// A set of keys that is cheap to empty and refill, one text after another: a slot belongs
/// to the current fill only when it carries the current generation. (Unsafe buffers: this
/// runs once per byte of every note indexed.)
struct KeySet: ~Copyable {
    /// generation << 32 | key, linear probing.
    private var slots: UnsafeMutableBufferPointer<UInt64>
    private var mask: Int
    private var generation: UInt64 = 1
    private var stored: UnsafeMutableBufferPointer<UInt32>
    private(set) var count = 0

    /// `capacity`: slots to start with, a power of two of at least 2 (the mask of linear
    /// probing and the half of it that holds keys need one).
    init(capacity: Int = 4096) {
        precondition(Self.isValid(capacity: capacity), "KeySet capacity \(capacity) is not a power of two ≥ 2")
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0)
        mask = capacity - 1
        stored = .allocate(capacity: capacity / 2)
    }

    deinit {
        slots.deallocate()
        stored.deallocate()
    }

    static func isValid(capacity: Int) -> Bool { capacity >= 2 && capacity & (capacity - 1) == 0 }

    /// The keys inserted since the last `removeAll`, in insertion order.
    var keys: UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(rebasing: stored[0..<count]) }

    mutating func removeAll() {
        count = 0
        generation += 1
    }

    mutating func insert(_ key: UInt32) {
        let tagged = generation << 32 | UInt64(key)
        var i = Self.hash(key) & mask
        while true {
            let slot = slots[i]
            if slot == tagged { return }
            if slot >> 32 != generation { break }
            i = (i + 1) & mask
        }
        slots[i] = tagged
        stored[count] = key
        count += 1
        if count * 2 >= slots.count { grow() }
    }

    private mutating func grow() {
        let capacity = slots.count * 2
        slots.deallocate()
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0)
        mask = capacity - 1
        let larger = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: capacity / 2)
        _ = larger.initialize(fromContentsOf: stored[0..<count])
        stored.deallocate()
        stored = larger
        for key in stored[0..<count] {
            var i = Self.hash(key) & mask
            while slots[i] >> 32 == generation { i = (i + 1) & mask }
            slots[i] = generation << 32 | UInt64(key)
        }
    }

    private static func hash(_ key: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 40)
    }
}

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

/// Builds one merged posting list from the lists of several segments (renumbered into the
/// merged segment's documents), reusing its buffers from key to key.
struct PostingMerger {
    private var merged: [UInt32] = []
    private var list: [UInt32] = []
    private var decoded: [UInt32] = []
    private var bytes: [UInt8] = []

    /// The concatenated list's encoding and last document (`append(_:shiftedBy:)`).
    private var concatenated: [UInt8] = []
    private var lastDocument: UInt32 = 0

    mutating func reset() {
        merged.removeAll(keepingCapacity: true)
        concatenated.removeAll(keepingCapacity: true)
    }

    /// Appends one segment's list whose documents all move up by `offset` and come after
    /// every document appended so far (segments that follow one another in time, nothing
    /// dropped): only the first gap is encoded again, the rest is copied. Throws
    /// `SearchIndexDamage` when the list does not decode or names a document at or past
    /// `documents` (the segment's count), which would break that order.
    mutating func append(_ blob: UnsafeRawBufferPointer, shiftedBy offset: UInt32, documents: Int) throws {
        var reader = VarintReader(blob)
        guard let first = try reader.next() else { return }
        let rest = UnsafeRawBufferPointer(rebasing: blob[reader.position...])
        var document = first
        while let gap = try reader.next() {
            let (next, overflow) = document.addingReportingOverflow(gap)
            guard !overflow else { throw SearchIndexDamage("a posting list runs past document 2^32") }
            document = next
        }
        guard Int(document) < documents, offset <= UInt32.max - document else {
            throw SearchIndexDamage("a posting names document \(document) of a segment of \(documents)")
        }
        let shifted = first + offset
        guard concatenated.isEmpty || shifted > lastDocument else {
            throw SearchIndexDamage("segments' posting lists overlap")
        }
        Postings.appendVarint(concatenated.isEmpty ? shifted : shifted - lastDocument, to: &concatenated)
        concatenated.append(contentsOf: rest)
        lastDocument = document + offset
    }

    /// The list built by `append(_:shiftedBy:)`; nil when empty.
    var concatenation: [UInt8]? { concatenated.isEmpty ? nil : concatenated }

    /// Adds one segment's list; `renumber` maps its document numbers (UInt32.max: dropped).
    /// Throws `SearchIndexDamage` when the list does not decode.
    mutating func add(_ blob: UnsafeRawBufferPointer, renumber: [UInt32]) throws {
        decoded.removeAll(keepingCapacity: true)
        try Postings.decode(blob, into: &decoded)
        list.removeAll(keepingCapacity: true)
        for document in decoded where Int(document) < renumber.count {
            let number = renumber[Int(document)]
            if number != .max { list.append(number) }
        }
        guard let first = list.first else { return }
        // Segments usually follow one another in time: then this is an append.
        if merged.last.map({ $0 < first }) ?? true {
            merged.append(contentsOf: list)
        } else {
            merged = Postings.union(merged, list)
        }
    }

    /// The merged list, encoded; nil when every document was dropped.
    mutating func encoded() -> [UInt8]? {
        guard !merged.isEmpty else { return nil }
        bytes.removeAll(keepingCapacity: true)
        Postings.encode(merged, into: &bytes)
        return bytes
    }
}

/// Reads LEB128 varints of at most 32 bits, as `Postings.appendVarint` writes them.
struct VarintReader {
    private let bytes: UnsafeRawBufferPointer
    /// The offset of the next varint.
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The next value; nil at the end. Throws `SearchIndexDamage` on a varint cut short or
    /// over 32 bits (five bytes at most, the fifth below 0x10).
    mutating func next() throws -> UInt32? {
        guard position < bytes.count else { return nil }
        var value: UInt32 = 0
        for index in 0..<5 {
            guard position < bytes.count else { throw SearchIndexDamage("a posting list ends inside a number") }
            let byte = bytes[position]
            position += 1
            guard index < 4 || byte < 0x10 else {
                throw SearchIndexDamage("a posting list holds a number over 32 bits")
            }
            value |= UInt32(byte & 0x7F) << (7 * index)
            if byte & 0x80 == 0 { return value }
        }
        throw SearchIndexDamage("a posting list holds a number over 32 bits")
    }
}

/// A posting list or document table of the search index that does not decode. Never shown to
/// a user: a search then scans the text, a merge rebuilds the index (ARCHITECTURE §7).
struct SearchIndexDamage: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
