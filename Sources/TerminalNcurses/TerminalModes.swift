import Glibc

/// Terminal modes ncurses does not manage, switched with escape sequences of our own.
enum TerminalModes {
    /// Bracketed paste on (xterm `?2004`): a paste arrives between `ESC [200~` and `ESC [201~`.
    static let enableSequence: StaticString = "\u{1B}[?2004h"
    /// Bracketed paste and every mouse mode off; safe to send to a terminal that never had them.
    static let disableSequence: StaticString = "\u{1B}[?2004l\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l"

    static func enable(fd: Int32) { send(enableSequence, fd: fd) }

    /// Async-signal-safe: one write of a constant.
    static func disable(fd: Int32) { send(disableSequence, fd: fd) }

    private static func send(_ sequence: StaticString, fd: Int32) {
        _ = Glibc.write(fd, sequence.utf8Start, sequence.utf8CodeUnitCount)
    }

    /// The largest text sent to the clipboard: 100,000 base64 characters, about what terminals
    /// accept in one OSC 52 sequence (longer ones are dropped whole).
    static let clipboardLimit = 74_994

    /// OSC 52 setting the clipboard (`c`) to `text`: `ESC ] 52 ; c ; <base64> BEL`. Text over
    /// `clipboardLimit` bytes is cut at a character boundary before it.
    static func clipboardSequence(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        if bytes.count > clipboardLimit {
            var end = clipboardLimit
            // Back to the start of a UTF-8 sequence (never cut one in half).
            while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            bytes.removeSubrange(end...)
        }
        return Array("\u{1B}]52;c;".utf8) + base64(bytes) + [0x07]
    }

    /// Standard base64 with padding (RFC 4648 §4).
    static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i])
            let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            out.append(i + 1 < bytes.count ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return out
    }

    /// Writes all of `bytes`, retrying short writes and EINTR; gives up on any other error.
    static func write(_ bytes: [UInt8], fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
