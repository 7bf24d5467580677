import TerminalUI
import Testing

/// The Buffer is the last line of defence: whatever text reaches it, no cell holds a scalar a
/// terminal would interpret or hide. (Making such text readable, `␛` instead of `�`, is
/// TerminalSafeText's job in NotesCore, applied before text reaches a widget: ARCHITECTURE §7 wants
/// one sanitizer.)
@Suite struct BufferSafetyTests {
    func scalars(of buffer: Buffer) -> [Unicode.Scalar] {
        buffer.lines.flatMap { Array($0.unicodeScalars) }
    }

    @Test func titleAndClearScreenSequencesNeverReachACellRaw() {
        var buffer = Buffer(size: Size(width: 20, height: 2))
        buffer.write("\u{1B}]0;title\u{7}", at: Point(x: 0, y: 0))
        buffer.write("\u{1B}[2J\u{202E}x", at: Point(x: 0, y: 1))
        // Zero-width scalars draw nothing: the controls are dropped, the printable rest stays.
        #expect(buffer.lines[0] == "]0;title" + String(repeating: " ", count: 12))
        #expect(buffer.lines[1] == "[2Jx" + String(repeating: " ", count: 16))
    }

    @Test func noCellHoldsAControlOrFormatScalar() {
        var samples = (UInt32(0)..<0x300).compactMap { Unicode.Scalar($0).map { "a" + String($0) + "b" } }
        samples += [
            "\u{1B}]0;t\u{7}", "\u{1B}[2J", "\r", "\r\n", "\u{202E}", "\u{2066}", "\u{200E}", "\u{FEFF}", "\u{9B}",
        ]
        for sample in samples {
            var buffer = Buffer(size: Size(width: 12, height: 1))
            buffer.write(sample, at: Point(x: 0, y: 0))
            for scalar in scalars(of: buffer) {
                let v = scalar.value
                #expect(!(v < 0x20 || (0x7F...0x9F).contains(v)), "\(sample.debugDescription)")
                #expect(
                    v == 0x200D || scalar.properties.generalCategory != .format, "\(sample.debugDescription)")
            }
        }
    }

    @Test func ordinaryTextIsUnchanged() {
        let text = "Café 日本語 👍🏽 e\u{301}"
        var buffer = Buffer(size: Size(width: 30, height: 1))
        buffer.write(text, at: Point(x: 0, y: 0))
        #expect(buffer.lines[0].hasPrefix(text))
    }
}
