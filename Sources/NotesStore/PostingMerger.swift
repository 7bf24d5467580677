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
        if Postings.isBitmap(blob) {
            // Its documents appended as gaps; the merged list is stored in its shorter form after.
            decoded.removeAll(keepingCapacity: true)
            try Postings.decode(blob, into: &decoded)
            guard let first = decoded.first, let last = decoded.last else { return }
            try appendFirst(first, last: last, shiftedBy: offset, documents: documents)
            for (previous, document) in zip(decoded, decoded.dropFirst()) {
                Postings.appendVarint(document - previous, to: &concatenated)
            }
            return
        }
        var reader = VarintReader(blob)
        guard let first = try reader.next() else { return }
        let rest = UnsafeRawBufferPointer(rebasing: blob[reader.position...])
        var document = first
        while let gap = try reader.next() {
            let (next, overflow) = document.addingReportingOverflow(gap)
            guard !overflow else { throw SearchIndexDamage("a posting list runs past document 2^32") }
            document = next
        }
        try appendFirst(first, last: document, shiftedBy: offset, documents: documents)
        concatenated.append(contentsOf: rest)
    }

    /// Checks a segment's list that runs from `first` to `last` and appends its first document,
    /// shifted, as the gap from the list so far; the rest of its gaps follow unchanged.
    private mutating func appendFirst(_ first: UInt32, last: UInt32, shiftedBy offset: UInt32, documents: Int) throws {
        guard Int(last) < documents, offset <= UInt32.max - last else {
            throw SearchIndexDamage("a posting names document \(last) of a segment of \(documents)")
        }
        let shifted = first + offset
        guard concatenated.isEmpty || shifted > lastDocument else {
            throw SearchIndexDamage("segments' posting lists overlap")
        }
        Postings.appendVarint(concatenated.isEmpty ? shifted : shifted - lastDocument, to: &concatenated)
        lastDocument = last + offset
    }

    /// The list built by `append(_:shiftedBy:)`, in its shorter form (`Postings.encode`); nil
    /// when empty.
    mutating func concatenation() throws -> [UInt8]? {
        guard !concatenated.isEmpty else { return nil }
        guard concatenated.count > Postings.bitmapByteCount(last: lastDocument) else { return concatenated }
        decoded.removeAll(keepingCapacity: true)
        try concatenated.withUnsafeBytes { try Postings.decode($0, into: &decoded) }
        bytes.removeAll(keepingCapacity: true)
        Postings.encode(decoded, into: &bytes)
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
