import CNCurses
import Glibc
import TerminalUI

/// The real terminal: a `TerminalBackend` on ncursesw, and the only code that paints (ARCHITECTURE §6).
///
/// One thread (the runtime's loop) makes every call but `wake()`. Input is waited for with
/// `poll` on stdin and a wake-up pipe, so work finished on another thread (a search result, a
/// change from sync or another process) repaints at once instead of on the next key; SIGWINCH
/// writes into the same pipe. ncurses reads with `nodelay`, so it never blocks on its own.
///
/// The terminal is restored by `close()` (also run by `deinit`), and by a crash signal's
/// handler (`TerminalSignals`).
public final class NcursesTerminal: TerminalBackend {
    /// Why the terminal could not be opened.
    public struct OpenError: Error, CustomStringConvertible {
        public var description: String
    }

    /// True when the locale's character set is UTF-8; when false the app draws ASCII glyphs,
    /// since ncurses cannot show ★ ✓ ↻ ⚠ in a locale that has no bytes for them.
    public let isUTF8: Bool
    /// True when cells are drawn in colour: the terminal has colours and `NO_COLOR` is unset.
    public let usesColor: Bool
    public private(set) var size: Size

    private let wakePipe: WakePipe
    var palette: ColorPalette
    private var decoder = InputDecoder()
    private var queued: [InputEvent] = []
    /// What the terminal shows, as last presented; nil forces a full repaint.
    private var shown: Buffer?
    private var isOpen = false
    private var stdinClosed = false

    /// The locale's character set is UTF-8 (call after `setlocale(LC_ALL, "")`).
    public static var localeIsUTF8: Bool {
        guard let codeset = cn_codeset() else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    /// Takes over the terminal on stdin/stdout: raw mode, no echo, keypad, mouse, bracketed
    /// paste, the alternate screen. Throws when stdin or stdout is not a terminal, `TERM`
    /// names no terminal ncurses knows, or the terminal cannot address the cursor (`TERM=dumb`).
    public init() throws {
        setlocale(LC_ALL, "")
        guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
            throw OpenError(description: "the TUI needs a terminal on stdin and stdout")
        }
        isUTF8 = Self.localeIsUTF8
        wakePipe = try WakePipe()
        TerminalSignals.install(wakeFD: wakePipe.writeFD)
        // A lone Esc is told from the start of a sequence by a pause: 25 ms instead of ncurses' 1 s.
        set_escdelay(25)
        guard let output = fdopen(STDOUT_FILENO, "w"), let input = fdopen(STDIN_FILENO, "r"),
            newterm(nil, output, input) != nil
        else {
            TerminalSignals.uninstall()
            let term = getenv("TERM").map { String(cString: $0) } ?? "(unset)"
            throw OpenError(description: "cannot use the terminal (TERM=\(term)); try TERM=xterm-256color")
        }
        // A terminal ncurses knows but that cannot address the cursor (TERM=dumb, a printing
        // terminal) would get a garbled screen: refuse it as an unknown one.
        guard cn_can_address_cursor() != 0 else {
            endwin()
            TerminalSignals.uninstall()
            let term = getenv("TERM").map { String(cString: $0) } ?? "(unset)"
            throw OpenError(
                description: "the terminal cannot move the cursor (TERM=\(term)); the TUI needs one that can, "
                    + "e.g. TERM=xterm-256color; scripts can use `cloudnotes list`")
        }
        isOpen = true
        raw()
        noecho()
        nonl()
        keypad(cn_stdscr(), true)
        nodelay(cn_stdscr(), true)
        meta(cn_stdscr(), true)
        curs_set(0)
        mouseinterval(0)
        mousemask(cn_button1_pressed() | cn_button4_pressed() | cn_button5_pressed(), nil)
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        usesColor = !noColor && has_colors()
        if usesColor {
            start_color()
            use_default_colors()
        }
        palette = ColorPalette(enabled: usesColor, colorCount: Int(cn_colors()))
        size = Size(width: Int(cn_cols()), height: Int(cn_lines()))
        TerminalModes.enable(fd: STDOUT_FILENO)
    }

    deinit { close() }

    /// Gives the terminal back as it was; safe to call more than once.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        TerminalModes.disable(fd: STDOUT_FILENO)
        endwin()
        TerminalSignals.uninstall()
    }

    public func present(_ buffer: Buffer) {
        guard isOpen else { return }
        let previous = shown.flatMap { $0.size == buffer.size ? $0 : nil }
        if previous == nil {
            // ncurses' idea of what the terminal shows is stale after a resize or `$EDITOR`:
            // clear and repaint every cell.
            erase()
            clearok(cn_curscr(), true)
        }
        let diff = BufferDiff(from: previous ?? Buffer(size: .zero), to: buffer)
        paint(diff)
        shown = buffer
        refresh()
    }

    public func nextEvent(timeout: Duration?) -> InputEvent? {
        if !queued.isEmpty { return queued.removeFirst() }
        guard isOpen else { return nil }
        var fds = [pollfd(fd: wakePipe.readFD, events: Int16(POLLIN), revents: 0)]
        if !stdinClosed { fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
        var waitMs = timeout.map(Self.milliseconds) ?? -1
        // An unfinished escape sequence gets the escape delay to complete, then is flushed.
        if decoder.hasPending { waitMs = waitMs < 0 ? 30 : min(waitMs, 30) }
        let ready = poll(&fds, nfds_t(fds.count), waitMs)
        if ready < 0 { return nil }  // EINTR: a signal; its byte is in the pipe for the next call
        if fds[0].revents & Int16(POLLIN) != 0, wakePipe.drain().contains(WakeByte.resize) {
            handleResize()
        }
        let input = fds.count > 1 ? fds[1].revents : 0
        if input & Int16(POLLIN) != 0 {
            readInput()
        } else if input & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            // The terminal went away: the same as being hung up on (the runtime saves and quits).
            stdinClosed = true
            raise(SIGHUP)
        }
        if ready == 0 && decoder.hasPending { queued += decoder.flush() }
        return queued.isEmpty ? nil : queued.removeFirst()
    }

    public func wake() { wakePipe.wake() }

    public func suspend() {
        guard isOpen else { return }
        TerminalModes.disable(fd: STDOUT_FILENO)
        endwin()
    }

    public func resume() {
        guard isOpen else { return }
        refresh()
        TerminalModes.enable(fd: STDOUT_FILENO)
        clearok(cn_curscr(), true)
        shown = nil
        updateSize()
    }

    public func setClipboard(_ text: String) {
        guard isOpen else { return }
        // ncurses has flushed what it painted (`refresh` in `present`); this goes after it, raw.
        TerminalModes.write(TerminalModes.clipboardSequence(text), fd: STDOUT_FILENO)
    }

    /// Reads everything ncurses has (it never blocks: `nodelay`) and decodes it.
    private func readInput() {
        var units: [InputDecoder.Unit] = []
        var value: Int32 = 0
        while true {
            let result = cn_get_wch(&value)
            if result == cn_err() { break }
            if result == cn_key_code_yes() {
                switch value {
                case cn_key_resize():
                    handleResize()
                case cn_key_mouse():
                    if let event = mouseEvent() {
                        queued += decoder.feed(units)
                        units = []
                        queued.append(event)
                    }
                default:
                    if let key = Self.key(code: value) { units.append(.key(key.0, modifiers: key.1)) }
                }
            } else if let scalar = Unicode.Scalar(UInt32(bitPattern: value)) {
                units.append(.scalar(scalar))
            }
        }
        queued += decoder.feed(units)
        // ncurses waited its escape delay (25 ms) before giving a lone ESC: Escape now, not after
        // a second delay (Esc out of a search took 67 ms at 100k notes, 55 of them waiting).
        if decoder.hasLoneEscape { queued += decoder.flush() }
    }

    private func mouseEvent() -> InputEvent? {
        var event = MEVENT()
        guard getmouse(&event) == cn_ok() else { return nil }
        let point = Point(x: Int(event.x), y: Int(event.y))
        if event.bstate & cn_button4_pressed() != 0 { return .mouse(.wheelUp(point)) }
        if cn_button5_pressed() != 0 && event.bstate & cn_button5_pressed() != 0 { return .mouse(.wheelDown(point)) }
        if event.bstate & (cn_button1_pressed() | cn_button1_clicked()) != 0 { return .mouse(.click(point)) }
        return nil
    }

    /// Asks the kernel for the window size and resizes ncurses' screens to it.
    private func handleResize() {
        var ws = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0, ws.ws_col > 0 {
            resize_term(Int32(ws.ws_row), Int32(ws.ws_col))
        }
        let before = size
        updateSize()
        shown = nil
        if size != before || queued.last != .resize(size) { queued.append(.resize(size)) }
    }

    private func updateSize() {
        size = Size(width: Int(cn_cols()), height: Int(cn_lines()))
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let ms = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, ms))
    }

    /// A key code from ncurses as our key, with modifiers for the shifted and extended keys.
    static func key(code: Int32) -> (InputEvent.Key, InputEvent.Modifiers)? {
        switch code {
        case cn_key_up(): return (.up, [])
        case cn_key_down(): return (.down, [])
        case cn_key_left(): return (.left, [])
        case cn_key_right(): return (.right, [])
        case cn_key_sleft(): return (.left, .shift)
        case cn_key_sright(): return (.right, .shift)
        // Shift-↑ and Shift-↓ are terminfo's "scroll reverse / forward" keys.
        case cn_key_sr(): return (.up, .shift)
        case cn_key_sf(): return (.down, .shift)
        case cn_key_shome(): return (.home, .shift)
        case cn_key_send(): return (.end, .shift)
        case cn_key_home(): return (.home, [])
        case cn_key_end(): return (.end, [])
        case cn_key_ppage(): return (.pageUp, [])
        case cn_key_npage(): return (.pageDown, [])
        case cn_key_backspace(): return (.backspace, [])
        case cn_key_dc(): return (.delete, [])
        case cn_key_ic(): return (.insert, [])
        case cn_key_enter(): return (.enter, [])
        case cn_key_btab(): return (.tab, .shift)
        case (cn_key_f0() + 1)...(cn_key_f0() + 63): return (.function(Int(code - cn_key_f0())), [])
        default:
            guard let name = keyname(code) else { return nil }
            return InputDecoder.extendedKey(named: String(cString: name))
        }
    }
}
