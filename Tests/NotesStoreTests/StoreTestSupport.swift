import Foundation
import NotesCore

@testable import NotesStore

/// A store in a fresh temporary directory, with a clock the test moves by hand.
final class TestStore: @unchecked Sendable {
    let directory: URL
    let store: NoteStore
    private let lock = NSLock()
    private var nowValue = Date(timeIntervalSince1970: 1_700_000_000)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cloudnotes-store-\(UUID().uuidString)")
        let box = ClockBox()
        store = try NoteStore(directory: directory, clock: { box.now })
        box.owner = self
    }

    var now: Date {
        get { lock.withLock { nowValue } }
        set { lock.withLock { nowValue = newValue } }
    }

    func advance(_ seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

private final class ClockBox: @unchecked Sendable {
    weak var owner: TestStore?
    var now: Date { owner?.now ?? Date(timeIntervalSince1970: 1_700_000_000) }
}
