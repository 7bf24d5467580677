import Testing

@testable import TerminalNcurses
@testable import TerminalUI

/// ncurses' key codes for the shifted keys that select text in the editor.
@Suite struct NcursesKeyCodeTests {
    /// Codes from ncurses' curses.h (octal there): KEY_SF 0520, KEY_SR 0521, KEY_SEND 0602,
    /// KEY_SHOME 0607, KEY_SLEFT 0611, KEY_SRIGHT 0622.
    @Test(arguments: [
        (0o521, InputEvent.Key.up), (0o520, .down), (0o607, .home), (0o602, .end), (0o611, .left), (0o622, .right),
    ])
    func shiftedKeysAreTheKeyWithShift(code: Int, key: InputEvent.Key) {
        let decoded = NcursesTerminal.key(code: Int32(code))
        #expect(decoded?.0 == key)
        #expect(decoded?.1 == .shift)
    }
}
