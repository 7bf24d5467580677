import Foundation

/// A JSON array written one element at a time, byte for byte what `JSONEncoder` with
/// `.prettyPrinted` writes for the whole array (each element's lines indented two spaces), so
/// the writer holds one element and a megabyte of output, never the whole array.
public struct JSONArrayStream {
    private let sink: (Data) throws -> Void
    private let encoder: JSONEncoder
    private var count = 0
    /// Bytes to write (an array: `Data`'s appends of a few bytes were a fifth of the stream).
    private var buffer: [UInt8] = []

    /// An array whose bytes go to `sink`, a megabyte or so at a time.
    public init(sink: @escaping (Data) throws -> Void) {
        self.sink = sink
        encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    }

    public mutating func append(_ value: some Encodable) throws {
        let data = try encoder.encode(value)
        buffer.append(contentsOf: (count == 0 ? "[\n" : ",\n").utf8)
        // Strings are escaped, so every LF in the encoding ends a line; empty lines stay empty.
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var start = 0
            while start <= raw.count {
                let end =
                    memchr(base + start, 0x0A, raw.count - start).map { $0 - UnsafeMutableRawPointer(mutating: base) }
                    ?? raw.count
                if end > start {
                    buffer.append(0x20)
                    buffer.append(0x20)
                    buffer.append(
                        contentsOf: UnsafeBufferPointer(
                            start: base.assumingMemoryBound(to: UInt8.self) + start, count: end - start))
                }
                if end < raw.count { buffer.append(0x0A) }
                start = end + 1
            }
        }
        count += 1
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Appends an element `write` writes (`PrettyJSONWriter`, D-238): the bytes `append` writes
    /// for a value whose encoding is the same, without `JSONEncoder`. When `write` returns
    /// false, what it wrote is taken back and nothing is appended (false is returned).
    @discardableResult
    public mutating func append(writing write: (inout PrettyJSONWriter) throws -> Bool) throws -> Bool {
        let mark = buffer.count
        buffer.append(contentsOf: (count == 0 ? "[\n  " : ",\n  ").utf8)
        // The buffer is lent to the writer and taken back, not copied.
        var writer = PrettyJSONWriter(bytes: buffer, baseIndent: 2)
        buffer = []
        let written: Bool
        do {
            written = try write(&writer)
        } catch {
            buffer = writer.bytes
            buffer.removeSubrange(mark...)
            throw error
        }
        buffer = writer.bytes
        guard written else {
            buffer.removeSubrange(mark...)
            return false
        }
        count += 1
        if buffer.count >= 1 << 20 { try flush() }
        return true
    }

    /// Closes the array and writes what is left.
    public mutating func finish() throws {
        buffer.append(contentsOf: (count == 0 ? "[\n\n]" : "\n]").utf8)
        try flush()
    }

    private mutating func flush() throws {
        try sink(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}
