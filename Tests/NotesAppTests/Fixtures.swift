import Foundation
import NotesApp
import NotesCore
import TerminalUI

/// A fixed clock for every test: no test reads the real time.
let testNow = Date(timeIntervalSince1970: 1_800_000_000)

func noteID(_ n: Int) -> UUID {
    UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))!
}

func row(
    _ n: Int, _ title: String, ago seconds: TimeInterval, favorite: Bool = false, sync: Note.SyncState = .synced,
    snippet: String = ""
) -> NoteRow {
    NoteRow(
        id: noteID(n), title: title, snippet: snippet, modifiedAt: testNow.addingTimeInterval(-seconds),
        isFavorite: favorite, syncState: sync)
}

extension AppState {
    /// The loaded favorites; setting them (or `notes`) loads the whole list as one window.
    var favorites: [NoteRow] {
        get { listWindow.rows.filter(\.isFavorite) }
        set { setList(favorites: newValue, notes: notes) }
    }

    var notes: [NoteRow] {
        get { listWindow.rows.filter { !$0.isFavorite } }
        set { setList(favorites: favorites, notes: newValue) }
    }

    mutating func setList(favorites: [NoteRow], notes: [NoteRow]) {
        listWindow = ListWindow(
            offset: 0, rows: favorites + notes, favoriteCount: favorites.count,
            totalCount: favorites.count + notes.count)
        // A list set from scratch: the selection is whatever row is under it.
        if let id = selectedID, !(favorites + notes).contains(where: { $0.id == id }) { selectedID = nil }
    }

    /// Two favorites and three other notes, at 60x15, with the list focused on the first row.
    static func fixture(size: Size = Size(width: 60, height: 15)) -> AppState {
        var state = AppState(now: testNow, size: size)
        state.favorites = [
            NotesAppTests.row(1, "Groceries", ago: 120, favorite: true, snippet: "milk, eggs"),
            NotesAppTests.row(2, "Ideas", ago: 3 * 3600, favorite: true, sync: .pending),
        ]
        state.notes = [
            NotesAppTests.row(3, "Meeting notes", ago: 3 * 86_400, sync: .conflict, snippet: "Agenda: budget"),
            NotesAppTests.row(4, "Travel", ago: 300),
            NotesAppTests.row(5, "Books", ago: 40 * 86_400),
        ]
        state.selectedID = noteID(1)
        return state
    }

    /// The fixture with `count` more notes, for paging and scrolling.
    static func longFixture(count: Int = 30) -> AppState {
        var state = AppState.fixture()
        state.notes = (0..<count).map { NotesAppTests.row(100 + $0, "Note \($0)", ago: 60) }
        return state
    }
}

/// Sends keys written in `InputEvent.keys` notation and returns every effect, in order.
func send(_ notation: String, to state: inout AppState) -> [Effect] {
    guard let events = InputEvent.keys(notation) else {
        fatalError("bad key notation \(notation)")
    }
    return events.flatMap { update(&state, .input($0)) }
}

/// Row `y` of `buffer` as a buffer of its own (for comparing the status bar alone).
func row(_ y: Int, of buffer: Buffer) -> Buffer {
    var out = Buffer(size: Size(width: buffer.size.width, height: 1))
    for x in 0..<buffer.size.width where !buffer[x, y].isContinuation {
        out.set(buffer[x, y], at: Point(x: x, y: 0))
    }
    return out
}

/// `buffer` with every style reset, to compare its text with `Buffer(lines:)`.
func text(_ buffer: Buffer) -> Buffer {
    var out = buffer
    out.setStyle(.plain, in: out.area)
    return out
}

/// The styles of row `y`, from column `x` for `count` cells.
func styles(_ buffer: Buffer, y: Int, x: Int, count: Int) -> [Style] {
    (x..<x + count).map { buffer[$0, y].style }
}
