/// Builds one merged posting list from the lists of several segments (renumbered into the
/// merged segment's documents), reusing its buffers from key to key.
struct PostingMerger {
    private var merged: [UInt32] = []
    private var list: [UInt32] = []
    private var decoded: [UInt32] = []
    private var bytes: [UInt8] = []

    /// The concatenated list (`append(_:shiftedBy:documents:)`): varint gaps, or, from the
    /// append after which it would be stored as a bitmap, a bitmap (`isDense`; bit `d % 8` of
    /// byte `d / 8`, no marker), which a bitmap of a segment is ORed into a byte at a time.
    private var concatenated: [UInt8] = []
    private var bitmap: [UInt8] = []
    private var isDense = false
    /// How many documents the concatenated list has (what decides its form), and its last.
    private var count = 0
    private var lastDocument: UInt32 = 0

    mutating func reset() {
        merged.removeAll(keepingCapacity: true)
        concatenated.removeAll(keepingCapacity: true)
        bitmap.removeAll(keepingCapacity: true)
        isDense = false
        count = 0
    }

    /// Appends one segment's list whose documents all move up by `offset` and come after
    /// every document appended so far (segments that follow one another in time, nothing
    /// dropped): a list of gaps has only its first gap encoded again, the rest copied; a bitmap
    /// is copied bit for bit once the whole is dense. Throws `SearchIndexDamage` when the list
    /// does not decode or names a document at or past `documents` (the segment's count), which
    /// would break that order.
    mutating func append(_ blob: UnsafeRawBufferPointer, shiftedBy offset: UInt32, documents: Int) throws {
        if Postings.isBitmap(blob) {
            try appendBitmap(Postings.bitmapBits(blob), offset, documents)
            return
        }
        var reader = VarintReader(blob)
        guard let first = try reader.next() else { return }
        let rest = UnsafeRawBufferPointer(rebasing: blob[reader.position...])
        var document = first
        var added = 1
        while let gap = try reader.next() {
            let (next, overflow) = document.addingReportingOverflow(gap)
            guard !overflow else { throw SearchIndexDamage("a posting list runs past document 2^32") }
            document = next
            added += 1
        }
        try check(first, last: document, shiftedBy: offset, documents: documents)
        if isDense {
            growBitmap(to: document + offset)
            var reader = VarintReader(blob)
            var position = offset
            while let gap = try reader.next() {
                position += gap
                setBit(position)
            }
        } else {
            Postings.appendVarint(count == 0 ? first + offset : first + offset - lastDocument, to: &concatenated)
            concatenated.append(contentsOf: rest)
        }
        count += added
        lastDocument = document + offset
    }

    /// `append` of a segment's bitmap (`bits`, after the marker).
    private mutating func appendBitmap(_ bits: UnsafeRawBufferPointer, _ offset: UInt32, _ documents: Int) throws {
        guard let firstByte = bits.firstIndex(where: { $0 != 0 }), let lastByte = bits.lastIndex(where: { $0 != 0 })
        else { return }
        let first = UInt32(firstByte * 8 + bits[firstByte].trailingZeroBitCount)
        let last = UInt32(lastByte * 8 + 7 - bits[lastByte].leadingZeroBitCount)
        try check(first, last: last, shiftedBy: offset, documents: documents)
        var added = 0
        for index in firstByte...lastByte { added += bits[index].nonzeroBitCount }
        if !isDense, count + added > Postings.bitmapByteCount(last: last + offset) {
            // Gaps would be longer than the bitmap from here on: the gaps so far become bits.
            decoded.removeAll(keepingCapacity: true)
            try concatenated.withUnsafeBytes { try Postings.decode($0, into: &decoded) }
            concatenated.removeAll(keepingCapacity: true)
            isDense = true
            growBitmap(to: last + offset)
            for document in decoded { setBit(document) }
        }
        if isDense {
            growBitmap(to: last + offset)
            let byteOffset = Int(offset / 8)
            let shift = offset % 8
            for index in firstByte...lastByte where bits[index] != 0 {
                bitmap[byteOffset + index] |= bits[index] << shift
                let spill = shift == 0 ? 0 : bits[index] >> (8 - shift)
                if spill != 0 { bitmap[byteOffset + index + 1] |= spill }
            }
        } else {
            Self.appendGaps(
                of: UnsafeRawBufferPointer(rebasing: bits[firstByte...lastByte]), from: firstByte * 8 + Int(offset),
                after: concatenated.isEmpty ? nil : lastDocument, to: &concatenated)
        }
        count += added
        lastDocument = last + offset
    }

    /// Checks a segment's list that runs from `first` to `last`: within its segment, and after
    /// the list so far once shifted by `offset`.
    private func check(_ first: UInt32, last: UInt32, shiftedBy offset: UInt32, documents: Int) throws {
        guard Int(last) < documents, offset <= UInt32.max - last else {
            throw SearchIndexDamage("a posting names document \(last) of a segment of \(documents)")
        }
        guard count == 0 || first + offset > lastDocument else {
            throw SearchIndexDamage("segments' posting lists overlap")
        }
    }

    /// Sets the bit of `document` in the bitmap (which has room for it).
    private mutating func setBit(_ document: UInt32) { bitmap[Int(document / 8)] |= 1 << (document % 8) }

    /// Appends the documents of `bits` (bit `d % 8` of byte `d / 8`), numbered from `base`, as
    /// varint gaps after document `previous` (nil: the first is written as it is).
    private static func appendGaps(
        of bits: UnsafeRawBufferPointer, from base: Int, after previous: UInt32?, to bytes: inout [UInt8]
    ) {
        var previous = previous
        for index in 0..<bits.count {
            var byte = bits[index]
            while byte != 0 {
                let document = UInt32(base + index * 8 + byte.trailingZeroBitCount)
                Postings.appendVarint(previous.map { document - $0 } ?? document, to: &bytes)
                previous = document
                byte &= byte - 1
            }
        }
    }

    /// The bitmap with room for document `last`.
    private mutating func growBitmap(to last: UInt32) {
        let needed = Int(last / 8) + 1
        if bitmap.count < needed { bitmap.appendZeros(needed - bitmap.count) }
    }

    /// The list built by `append(_:shiftedBy:)`, in its shorter form (what `Postings.encode`
    /// gives for its documents); nil when empty.
    mutating func concatenation() throws -> [UInt8]? {
        guard count > 0 else { return nil }
        let bitmapCount = Postings.bitmapByteCount(last: lastDocument)
        guard isDense else {
            guard concatenated.count > bitmapCount else { return concatenated }
            decoded.removeAll(keepingCapacity: true)
            try concatenated.withUnsafeBytes { try Postings.decode($0, into: &decoded) }
            bytes.removeAll(keepingCapacity: true)
            Postings.encode(decoded, into: &bytes)
            return bytes
        }
        // As `Postings.encode` decides: a bitmap for more documents than it has bytes, else for
        // gaps longer than it.
        var documents = 0
        for byte in bitmap { documents += byte.nonzeroBitCount }
        bytes.removeAll(keepingCapacity: true)
        if documents <= bitmapCount {
            bitmap.withUnsafeBytes { Self.appendGaps(of: $0, from: 0, after: nil, to: &bytes) }
            if bytes.count <= bitmapCount { return bytes }
            bytes.removeAll(keepingCapacity: true)
        }
        bytes.append(contentsOf: Postings.bitmapMarker)
        bytes.append(contentsOf: bitmap)
        return bytes
    }

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
