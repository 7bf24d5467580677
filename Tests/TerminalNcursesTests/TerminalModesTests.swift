import Testing

@testable import TerminalNcurses

/// The raw sequences the ncurses backend writes itself: bracketed paste and OSC 52.
@Suite struct TerminalModesTests {
    @Test func bracketedPasteIsTurnedOnAtStartAndOffOnExitAndSuspend() {
        #expect("\(TerminalModes.enableSequence)" == "\u{1B}[?2004h")
        #expect("\(TerminalModes.disableSequence)".hasPrefix("\u{1B}[?2004l"))
    }

    @Test func osc52CarriesTheTextAsBase64() {
        let bytes = TerminalModes.clipboardSequence("héllo\nwörld")
        // base64 of the UTF-8 bytes, as `printf 'héllo\nwörld' | base64` prints it.
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}]52;c;aMOpbGxvCnfDtnJsZA==\u{07}")
        #expect(String(decoding: TerminalModes.clipboardSequence(""), as: UTF8.self) == "\u{1B}]52;c;\u{07}")
        #expect(String(decoding: TerminalModes.base64(Array("ab".utf8)), as: UTF8.self) == "YWI=")
        #expect(String(decoding: TerminalModes.base64(Array("abc".utf8)), as: UTF8.self) == "YWJj")
    }

    @Test func aHugeClipboardIsCutAtACharacterBoundary() {
        // 3-byte characters: the limit falls inside one, which is left out whole.
        let text = String(repeating: "中", count: TerminalModes.clipboardLimit / 3 + 10)
        let bytes = TerminalModes.clipboardSequence(text)
        let payload = bytes.dropFirst(7).dropLast()
        #expect(payload.count <= (TerminalModes.clipboardLimit + 2) / 3 * 4)
        #expect(bytes.last == 0x07)
        let decoded = decodeBase64(Array(payload))
        #expect(String(validating: decoded, as: UTF8.self) != nil)
        #expect(decoded.count == TerminalModes.clipboardLimit / 3 * 3)
    }

    private func decodeBase64(_ text: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var bits = 0
        var value = 0
        for byte in text where byte != UInt8(ascii: "=") {
            value = value << 6 | alphabet.firstIndex(of: byte)!
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(value >> bits & 0xFF))
            }
        }
        return out
    }
}
