/// Writes JSON byte for byte as `JSONEncoder` with `.prettyPrinted`, `.sortedKeys` and
/// `.withoutEscapingSlashes` writes it, a value at a time, for output whose shape is known
/// (a search's hits, D-238): `JSONEncoder` was two fifths of the thread that prints every match
/// of a search as JSON. The caller gives an object's keys in sorted order and leaves out absent
/// optional values, as the encoder's synthesized conformances do. `JSONWriterTests` holds it to
/// `JSONEncoder` over random values.
public struct PrettyJSONWriter {
    /// What was written.
    public var bytes: [UInt8]
    /// Spaces before every line but the first (an element of a `JSONArrayStream` is indented).
    private let baseIndent: Int
    /// Per open object or array, how many members or elements it has so far.
    private var counts: [Int] = []

    public init(bytes: [UInt8] = [], baseIndent: Int = 0) {
        self.bytes = bytes
        self.baseIndent = baseIndent
    }

    private mutating func newline() {
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(0x20, count: baseIndent + 2 * counts.count))
    }

    /// Before a member or element: a comma after the one before, a new line, the indent.
    private mutating func next() {
        if let last = counts.last {
            if last > 0 { bytes.append(UInt8(ascii: ",")) }
            counts[counts.count - 1] = last + 1
        }
        newline()
    }

    private mutating func close(_ bracket: UInt8) {
        let members = counts.removeLast()
        // An empty container is an empty line between its brackets, as the encoder writes it.
        if members == 0 { bytes.append(0x0A) }
        newline()
        bytes.append(bracket)
    }

    public mutating func openObject() {
        bytes.append(UInt8(ascii: "{"))
        counts.append(0)
    }

    public mutating func closeObject() { close(UInt8(ascii: "}")) }

    public mutating func openArray() {
        bytes.append(UInt8(ascii: "["))
        counts.append(0)
    }

    public mutating func closeArray() { close(UInt8(ascii: "]")) }

    /// A member's key; its value is written next.
    public mutating func key(_ name: String) {
        next()
        string(name)
        bytes.append(contentsOf: " : ".utf8)
    }

    /// Before an array's element; its value is written next.
    public mutating func element() { next() }

    /// The encoder escapes a string as the canonical form does (`"`, `\\`, the short escapes,
    /// `\u00xx` for other control characters; slashes and the rest as they are): one writer.
    public mutating func string(_ text: String) {
        JSONValue.writeString(text, to: &bytes)
    }

    public mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }
}
