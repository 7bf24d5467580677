extension TextFolding {
    /// Folds many texts on one thread into a buffer it keeps (a search's checks of candidates):
    /// the fold `foldedUTF8` gives, without an array or a memo of its own per text. ASCII goes
    /// eight bytes at a time (a word with no byte above 0x7F is lowercased in place: the
    /// bytes from `A` to `Z` gain 0x20); other scalars are looked up in what this folder folded
    /// already (a table indexed by the scalar once more than `tableAfter` differ), else folded
    /// through the process-wide memo. Reading the bytes of a note as SQLite holds them, it saves
    /// making a String of each.
    public struct Folder {
        /// The folded bytes are `storage[0..<count]`; the rest is room.
        private var storage: [UInt8] = []
        public private(set) var count = 0
        /// Per BMP scalar: its fold's bytes in the low seven bytes, their count + 1 in the top
        /// byte (0: not folded yet; 0xFF: longer than seven, in `long`). Empty until
        /// `tableAfter` scalars were folded.
        private var table: [UInt64] = []
        private var long: [UInt32: [UInt8]] = [:]
        /// Scalars folded through the dictionary before the table is made (512 KB).
        private let tableAfter: Int
        /// Per folded byte of the last `foldNotingSources`, where its scalar starts in the input.
        private var sources: [Int32] = []

        /// - Parameter tableAfter: how many scalars are folded through a dictionary before the
        ///   table is made; a folder for one text never makes it (`Int.max`).
        public init(tableAfter: Int = 256) {
            self.tableAfter = tableAfter
        }

        /// The folded bytes of the last `fold` (and `append`s after it).
        public func withFolded<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
        }

        /// The folded bytes as an array.
        public var bytes: [UInt8] { Array(storage[0..<count]) }

        /// The folded bytes as an array, taken from the folder (which starts empty again).
        public mutating func takeBytes() -> [UInt8] {
            storage.removeLast(storage.count - count)
            defer {
                storage = []
                count = 0
            }
            return storage
        }

        /// Forgets the folded text (not what was learnt about scalars).
        public mutating func removeAll() { count = 0 }

        /// Forgets what was folded or appended after the first `length` bytes.
        public mutating func truncate(to length: Int) { count = min(count, max(0, length)) }

        /// Appends `bytes` as they are, unfolded (a separator no fold makes).
        public mutating func appendVerbatim(_ bytes: some Collection<UInt8>) {
            if storage.count < count + bytes.count { storage.appendZeros(count + bytes.count - storage.count) }
            storage.replaceSubrange(count..<count + bytes.count, with: bytes)
            count += bytes.count
        }

        /// Folds `bytes` in place of the text before. False, with nothing folded, when they are
        /// not whole UTF-8 sequences (never for a String's bytes).
        public mutating func fold(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            count = 0
            return append(bytes)
        }

        /// `fold(bytes)`, noting for each folded byte where the scalar it comes from starts in
        /// `bytes` (`source(ofFolded:)`): a match found in the folded bytes is mapped back to the
        /// text's own.
        public mutating func foldNotingSources(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            fold(bytes) && noteSources(of: bytes)
        }

        /// Notes for each folded byte where the scalar it comes from starts in `bytes`, whose
        /// fold the folder holds (`fold(bytes)` last, true); false when it does not.
        public mutating func noteSources(of bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            sources.removeAll(keepingCapacity: true)
            sources.reserveCapacity(count)
            guard let base = bytes.baseAddress else { return count == 0 }
            var index = 0
            while index < bytes.count {
                let lead = base[index]
                if lead < 0x80 {
                    sources.append(Int32(index))
                    index += 1
                    continue
                }
                // Whole sequences when the folder holds their fold (`fold` checked them).
                let length = UTF8Sequence.length(lead: lead)
                guard length > 0, index + length <= bytes.count,
                    let value = UTF8Sequence.value(base, at: index, length: length)
                else { return false }
                sources.append(contentsOf: repeatElement(Int32(index), count: foldedCount(value)))
                index += length
            }
            // Each scalar's fold was counted as `fold` wrote it: never otherwise when the folder
            // holds the fold of `bytes`.
            return sources.count == count
        }

        /// Where the scalar of folded byte `index` starts in the input of the last
        /// `foldNotingSources`.
        public func source(ofFolded index: Int) -> Int { Int(sources[index]) }

        /// How many bytes `value`'s fold takes, as `foldRun` learnt it (or copied it).
        private func foldedCount(_ value: UInt32) -> Int {
            if Self.foldsToItself(value) { return value < 0x10000 ? 3 : 4 }
            if value < 0x10000, !table.isEmpty {
                let entry = table[Int(value)]
                if entry != 0 && entry != Self.inLong { return Int(entry >> 56) - 1 }
            }
            if let known = long[value] { return known.count }
            return Unicode.Scalar(value).map { TextFolding.foldCache.utf8(of: $0).count } ?? 0
        }

        /// Appends the fold of `bytes`; false, with the text as it was, when they are not whole
        /// UTF-8 sequences.
        public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let source = bytes.baseAddress else { return true }
            let start = count
            var index = 0
            // Taken out of self for the loop (exclusive access), put back after.
            var out = storage
            storage = []
            defer { storage = out }
            var minimum = 0
            while index < bytes.count {
                // Room for the rest as long as it folds to no more bytes than it has; scalars
                // that fold longer can use it up, and the loop makes more.
                let needed = max(count + (bytes.count - index) + 64, minimum)
                if out.count < needed { out.appendZeros(max(needed, out.count * 2) - out.count) }
                let step = out.withUnsafeMutableBufferPointer { out in
                    // Never nil: `out` has room for at least 64 bytes.
                    out.baseAddress.flatMap {
                        foldRun(source, bytes.count, from: index, into: $0, at: count, room: out.count)
                    }
                }
                guard let step else {
                    count = start
                    return false
                }
                if step.index == index { minimum = out.count * 2 }
                index = step.index
                count = step.count
            }
            return true
        }

        /// Folds from `index` until the input ends or the room does not hold the next scalar's
        /// fold; nil when the input is not whole UTF-8 sequences.
        private mutating func foldRun(
            _ source: UnsafePointer<UInt8>, _ end: Int, from index: Int, into out: UnsafeMutablePointer<UInt8>,
            at written: Int, room: Int
        ) -> (index: Int, count: Int)? {
            var i = index
            var o = written
            let raw = UnsafeRawPointer(source)
            let rawOut = UnsafeMutableRawPointer(out)
            while i < end {
                if i + 8 <= end {
                    let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 == 0 {
                        // Bit 7 of each byte from 0x41 (`A`) to 0x5A (`Z`), moved to bit 5.
                        let upper = (word &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(word &+ 0x2525_2525_2525_2525)
                        rawOut.storeBytes(
                            of: word | (upper & 0x8080_8080_8080_8080) >> 2, toByteOffset: o, as: UInt64.self)
                        i += 8
                        o += 8
                        continue
                    }
                }
                let lead = source[i]
                if lead < 0x80 {
                    out[o] = lead >= 0x41 && lead <= 0x5A ? lead | 0x20 : lead
                    i += 1
                    o += 1
                    continue
                }
                let length = UTF8Sequence.length(lead: lead)
                guard length > 0, i + length <= end, let value = UTF8Sequence.value(source, at: i, length: length)
                else { return nil }
                if Self.foldsToItself(value) {
                    // Room for the rest of the input as it is.
                    guard o + (end - i) <= room else { return (i, o) }
                    for offset in 0..<length { out[o + offset] = source[i + offset] }
                    i += length
                    o += length
                    continue
                }
                if value < 0x10000, !table.isEmpty {
                    var entry = table[Int(value)]
                    if entry == 0 {
                        guard let scalar = Unicode.Scalar(value) else { return nil }
                        entry = Self.entry(TextFolding.foldCache.utf8(of: scalar))
                        if entry == Self.inLong { long[value] = TextFolding.foldCache.utf8(of: scalar) }
                        table[Int(value)] = entry
                    }
                    if entry != Self.inLong {
                        let n = Int(entry >> 56) - 1
                        // Room for the rest of the input as ASCII, after eight bytes written
                        // here (`n` of them kept).
                        guard o + 8 + (end - i - length) <= room else { return (i, o) }
                        rawOut.storeBytes(
                            of: (entry & 0x00FF_FFFF_FFFF_FFFF).littleEndian, toByteOffset: o, as: UInt64.self)
                        i += length
                        o += n
                        continue
                    }
                }
                let folded: [UInt8]
                if let known = long[value] {
                    folded = known
                } else {
                    guard let scalar = Unicode.Scalar(value) else { return nil }
                    folded = TextFolding.foldCache.utf8(of: scalar)
                    long[value] = folded
                    if table.isEmpty, long.count > tableAfter { makeTable() }
                }
                guard o + folded.count + (end - i - length) <= room else { return (i, o) }
                for byte in folded {
                    out[o] = byte
                    o += 1
                }
                i += length
            }
            return (i, o)
        }

        private static let inLong: UInt64 = 0xFF << 56

        /// Scalars whose fold is themselves: CJK ideographs and emoji (no case, no
        /// decomposition), copied without a look-up. The table's entries for them lie across
        /// 170 KB, and a note's ideographs missed the cache on each (`TextFoldingTests` folds
        /// every one of them).
        static let identity: [ClosedRange<UInt32>] = [0x4E00...0x9FFF, 0x1F300...0x1F64F, 0x1F680...0x1F6FF]

        @inline(__always)
        static func foldsToItself(_ value: UInt32) -> Bool {
            (0x4E00...0x9FFF).contains(value) || (0x1F300...0x1F64F).contains(value)
                || (0x1F680...0x1F6FF).contains(value)
        }

        /// A table entry for a fold of these bytes (little-endian: the first byte lowest).
        private static func entry(_ folded: [UInt8]) -> UInt64 {
            guard folded.count <= 7 else { return inLong }
            var entry = UInt64(folded.count + 1) << 56
            for (k, byte) in folded.enumerated() { entry |= UInt64(byte) << (8 * k) }
            return entry
        }

        private mutating func makeTable() {
            table = [UInt64](repeating: 0, count: 0x10000)
            for (value, folded) in long where value < 0x10000 { table[Int(value)] = Self.entry(folded) }
        }
    }
}
