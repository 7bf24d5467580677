import Foundation
import NotesApp
import NotesCore
import NotesTestSupport
import TerminalUI
import Testing

/// Random sequences of keys, searches, resizes and writes from elsewhere, over random stores,
/// checked after every step against a small reference model of what is listed and which note
/// is selected (ARCHITECTURE §6: the selection is a note). `ModelStore` plays the runtime.
///
/// Replay a failure with the seed its message prints: CLOUDNOTES_SELECTION_SEED=<seed>.
@Suite struct SelectionModelTests {
    static let seed: UInt64 =
        ProcessInfo.processInfo.environment["CLOUDNOTES_SELECTION_SEED"].flatMap { UInt64($0) } ?? 20_261_123
    static let steps = ProcessInfo.processInfo.environment["CLOUDNOTES_SELECTION_STEPS"].flatMap { Int($0) } ?? 10_000

    @Test func theSelectedNoteIsTheOneTheModelExpectsAfterEveryStep() {
        var run = SelectionModelRun(seed: Self.seed)
        for step in 0..<Self.steps {
            run.step()
            if let problem = run.problem() {
                Issue.record(
                    "seed \(Self.seed) (CLOUDNOTES_SELECTION_SEED=\(Self.seed) to replay), step \(step): \(problem)\nlast steps: \(run.log.suffix(8).joined(separator: " | "))"
                )
                return
            }
        }
    }
}

/// One run: the app, the store and the reference model side by side.
struct SelectionModelRun {
    enum Focus { case list, search }

    var random: SeededRandom
    var store = ModelStore()
    var app = AppState(now: Date(timeIntervalSince1970: 0))
    /// The reference: the note that must be selected (nil: the list is empty), the search
    /// typed (empty: the whole list) and which part takes keys.
    var expected: UUID?
    var query = ""
    var focus = Focus.list
    var trashed: UUID?
    var log: [String] = []
    private var stepsOnThisStore = 0

    static let words = ["alpha", "beta", "gamma", "delta", "abc", "bad", "cab", "dead", "bead", "ace"]
    static let sizes = [
        Size(width: 60, height: 15), Size(width: 80, height: 24), Size(width: 120, height: 40),
        Size(width: 60, height: 8), Size(width: 100, height: 12),
    ]

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
        newStore()
    }

    /// What the model lists now.
    mutating func listed() -> [ModelStore.Note] { query.isEmpty ? store.listed() : store.searched(query) }

    mutating func text(words count: Int) -> String {
        (0..<count).map { _ in Self.words.randomElement(using: &random)! }.joined(separator: " ")
    }

    /// A fresh store of 0 to 400 notes (some favorites, some equal times) and a fresh app on it.
    mutating func newStore() {
        store = ModelStore()
        let count = [0, 1, 5, 30, 120, 400].randomElement(using: &random)!
        for _ in 0..<count {
            let time = 1_000_000 - Int.random(in: 0..<count * 2 + 1, using: &random)
            _ = store.add(
                title: text(words: Int.random(in: 1...3, using: &random)),
                body: text(words: Int.random(in: 0...4, using: &random)),
                favorite: Int.random(in: 0..<5, using: &random) == 0, modifiedAt: time)
        }
        app = store.app(size: Self.sizes.randomElement(using: &random)!)
        query = ""
        focus = .list
        trashed = nil
        expected = store.listed().first?.id
        stepsOnThisStore = 0
        log.append("new store of \(count) at \(app.size)")
    }

    /// After the listed notes changed: the selected note if still listed, else the row at its old index.
    mutating func follow(from old: [ModelStore.Note]) {
        let now = listed()
        if let id = expected, now.contains(where: { $0.id == id }) { return }
        let index = expected.flatMap { id in old.firstIndex { $0.id == id } } ?? 0
        expected = now.isEmpty ? nil : now[max(0, min(index, now.count - 1))].id
    }

    mutating func move(by delta: Int?) {
        let list = listed()
        guard !list.isEmpty else { return }
        let index = expected.flatMap { id in list.firstIndex { $0.id == id } } ?? 0
        let target = delta.map { index.addingReportingOverflow($0).partialValue } ?? list.count - 1
        expected = list[max(0, min(target, list.count - 1))].id
    }

    /// The list pane's height (as `Layout` makes it; at least 1 for paging).
    var listHeight: Int {
        let middle = max(0, app.size.height - 2)
        return max(1, app.size.width >= 80 ? middle : middle - middle / 2)
    }

    var pageSize: Int { max(1, listHeight - 1) }

    mutating func send(_ notation: String) {
        if ProcessInfo.processInfo.environment["CLOUDNOTES_SELECTION_TRACE"] != nil {
            print("send \(notation) query=\(query) selected=\(String(describing: app.selectedID)) at \(app.selection)")
        }
        log.append(notation)
        store.send(notation, to: &app)
    }

    mutating func step() {
        stepsOnThisStore += 1
        if stepsOnThisStore > 600 && Int.random(in: 0..<50, using: &random) == 0 { return newStore() }
        switch focus {
        case .list: listStep()
        case .search: searchStep()
        }
    }

    mutating func listStep() {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<12:
            send("j")
            move(by: 1)
        case 12..<20:
            send("k")
            move(by: -1)
        case 20..<23:
            send(["g", "<Home>"].randomElement(using: &random)!)
            move(by: -Int.max)
        case 23..<27:
            send(["G", "<End>"].randomElement(using: &random)!)
            move(by: nil)
        case 27..<32:
            send("<PgDn>")
            move(by: pageSize)
        case 32..<35:
            send("<PgUp>")
            move(by: -pageSize)
        case 35..<39:
            let down = Bool.random(using: &random)
            let point = Point(x: 1, y: 2)
            log.append(down ? "wheel down" : "wheel up")
            store.settle(&app, update(&app, .input(.mouse(down ? .wheelDown(point) : .wheelUp(point)))))
            move(by: down ? 3 : -3)
        case 39..<47:
            // f: the selected note changes section; it stays selected.
            send("f")
        case 47..<52:
            let old = listed()
            send("d")
            if let id = expected {
                trashed = id
                follow(from: old)
            }
        case 52..<55:
            // u: the note comes back; the selection stays (or, in an empty list, takes it).
            let old = listed()
            send("u")
            trashed = nil
            follow(from: old)
        case 55..<62:
            send("/")
            focus = .search
        case 62..<65:
            if !query.isEmpty {
                send("<Esc>")
                leaveSearch()
            }
        case 65..<69:
            // A new note: selected, the search cleared; its title typed, then back to the list.
            let title = text(words: 1)
            send("n")
            query = ""
            send(title + "<Esc>")
            expected = store.notes.last?.id
        case 69..<73:
            // An edit in the pane: the note moves up (newer), stays listed and selected.
            guard expected != nil else { return }
            send("<Enter>x<Esc>")
        case 73..<77:
            resize()
        case 77..<85:
            heldKeys()
        default:
            externalWrite()
        }
    }

    /// Keys pressed faster than the store answers (a held `j`, `G` at once after a search):
    /// between keys only some of the waiting answers arrive, in an order the runtime allows.
    /// The selection ends where the same keys answered one by one would put it.
    mutating func heldKeys() {
        let keys = (0..<Int.random(in: 2...12, using: &random)).map { _ in
            ["j", "j", "j", "k", "G", "<End>", "g", "<PgDn>", "<PgUp>", "<Down>"].randomElement(using: &random)!
        }
        log.append("held: " + keys.joined(separator: " "))
        var held = HeldAnswers()
        for key in keys {
            for event in InputEvent.keys(key)! { held.hold(update(&app, .input(event))) }
            if ProcessInfo.processInfo.environment["CLOUDNOTES_SELECTION_TRACE"] != nil {
                print(
                    "key \(key) -> sel \(app.selection) \(String(describing: app.selectedID)) window \(app.listWindow.offset)+\(app.listWindow.rows.count) total \(app.listWindow.totalCount) waiting \(held.waiting)"
                )
            }
            switch key {
            case "j", "<Down>": move(by: 1)
            case "k": move(by: -1)
            case "G", "<End>": move(by: nil)
            case "g": move(by: -Int.max)
            case "<PgDn>": move(by: pageSize)
            default: move(by: -pageSize)
            }
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                held.answerOne(store: &store, app: &app, random: &random)
            }
        }
        held.settle(store: &store, app: &app, random: &random)
    }

    mutating func searchStep() {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<40:
            let old = listed()
            let character = Array("abcdeglt ").randomElement(using: &random)!
            send(String(character))
            query.append(character)
            typed(from: old)
        case 40..<55:
            let old = listed()
            send("<BS>")
            if !query.isEmpty {
                query.removeLast()
                if query.isEmpty { leaveSearch() } else { typed(from: old) }
            }
        case 55..<65:
            send("<Esc>")
            focus = .list
            leaveSearch()
        case 65..<80:
            send("<Enter>")
            focus = .list
        case 80..<85:
            send("<Down>")
            focus = .list
            move(by: 1)
        case 85..<90:
            resize()
        default:
            externalWrite()
        }
    }

    /// A new query: the selected note stays selected if it is among the first page of results
    /// (what the first answer holds: twice the list's height), else the top result is.
    mutating func typed(from old: [ModelStore.Note]) {
        let now = listed()
        if let id = expected, now.prefix(2 * listHeight).contains(where: { $0.id == id }) { return }
        expected = now.first?.id
    }

    mutating func leaveSearch() {
        query = ""
        let now = listed()
        if let id = expected, now.contains(where: { $0.id == id }) { return }
        expected = now.first?.id
    }

    mutating func resize() {
        let size = Self.sizes.randomElement(using: &random)!
        log.append("resize \(size)")
        store.settle(&app, update(&app, .resize(size)))
    }

    /// Another process or device writes: notes added, edited, favorited, trashed, purged.
    mutating func externalWrite() {
        let old = listed()
        var done: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            store.clock += Int.random(in: 0...2, using: &random)
            let clock = store.clock
            let id = store.notes.randomElement(using: &random)?.id
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                let title = text(words: 2)
                let new = store.add(title: title, modifiedAt: Bool.random(using: &random) ? clock : 1_000_000 - 5)
                done.append("add \(new.uuidString.suffix(4))")
            case 1:
                guard let id else { continue }
                store.change(id) { $0.modifiedAt = clock }
                done.append("edit \(id.uuidString.suffix(4))")
            case 2:
                guard let id else { continue }
                store.change(id) { $0.isFavorite.toggle() }
                done.append("fav \(id.uuidString.suffix(4))")
            case 3:
                guard let id = Bool.random(using: &random) ? expected ?? id : id else { continue }
                store.change(id) { $0.trashed = true }
                done.append("trash \(id.uuidString.suffix(4))")
            case 4:
                guard let id else { continue }
                store.remove(id)
                done.append("purge \(id.uuidString.suffix(4))")
            default:
                guard let id = store.notes.first(where: \.trashed)?.id else { continue }
                store.change(id) { $0.trashed = false }
                done.append("restore \(id.uuidString.suffix(4))")
            }
        }
        log.append("elsewhere: " + done.joined(separator: ", "))
        store.settle(&app, update(&app, .storeChanged([])))
        follow(from: old)
    }

    /// What differs between the app and the model, if anything.
    mutating func problem() -> String? {
        let list = listed()
        let appFocus: Focus? =
            switch app.focus {
            case .list: .list
            case .search: .search
            default: nil
            }
        if appFocus != focus { return "focus is \(app.focus), expected \(focus)" }
        if app.searchText != query { return "search text \(app.searchText), expected \(query)" }
        if app.selectedID != expected || app.selectedRow?.id != expected {
            let shown = app.selectedRow.map { "“\($0.title)” \($0.id.uuidString.suffix(4))" } ?? "nothing"
            let want = list.first { $0.id == expected }.map { "“\($0.title)” \($0.id.uuidString.suffix(4))" }
            return "selected \(shown) at row \(app.selection), expected \(want ?? "nothing")"
        }
        if let expected, let index = list.firstIndex(where: { $0.id == expected }), app.selection != index {
            return "selection row \(app.selection), expected \(index)"
        }
        if query.isEmpty {
            if app.rowCount != list.count { return "\(app.rowCount) rows, expected \(list.count)" }
            for (offset, row) in app.listWindow.rows.enumerated()
            where row.id != list[app.listWindow.offset + offset].id {
                return
                    "row \(app.listWindow.offset + offset) is \(row.id), expected \(list[app.listWindow.offset + offset].id)"
            }
        } else {
            guard let results = app.searchResults else { return "no results shown for \(query)" }
            if results.map(\.id) != list.prefix(results.count).map(\.id) {
                return "results are not the ranked results of \(query)"
            }
        }
        if let selected = app.selectedRow, app.size.height >= 8 {
            // The selected row is drawn, with the selection's style.
            let screen = view(app, app.size)
            let title = String(selected.title.prefix(8))
            let drawn = (1..<app.size.height - 1).contains { y in
                let line = (0..<min(app.size.width, 20)).map { screen[$0, y].grapheme }.joined()
                return line.contains(title) && screen[4, y].style.attributes.contains(.reverse)
            }
            if !drawn { return "the selected row “\(selected.title)” is not on screen" }
        }
        return nil
    }
}
