import TerminalUI
import Testing

@Suite struct TestBackendTests {
    @Test func replaysScriptedEventsThenTimesOut() {
        let backend = TestBackend(size: Size(width: 60, height: 15), events: [.char("j"), .key(.down)])
        backend.enqueue(.ctrl("s"), .paste("pasted\ntext"), .mouse(.click(Point(x: 3, y: 4))))
        backend.enqueue(InputEvent.typing("hi"))
        #expect(backend.nextEvent(timeout: .zero) == .key(.character("j")))
        #expect(backend.nextEvent(timeout: .zero) == .key(.down, modifiers: []))
        #expect(backend.nextEvent(timeout: nil) == .key(.character("s"), modifiers: .control))
        #expect(backend.nextEvent(timeout: nil) == .paste("pasted\ntext"))
        #expect(backend.nextEvent(timeout: nil) == .mouse(.click(Point(x: 3, y: 4))))
        #expect(backend.nextEvent(timeout: nil) == .char("h"))
        #expect(backend.nextEvent(timeout: nil) == .char("i"))
        #expect(backend.nextEvent(timeout: .milliseconds(10)) == nil)
    }

    @Test func wakeInterruptsTheNextWait() {
        let backend = TestBackend(size: Size(width: 10, height: 2), events: [.key(.escape)])
        backend.wake()
        #expect(backend.nextEvent(timeout: nil) == nil)
        #expect(backend.nextEvent(timeout: nil) == .key(.escape))
    }

    @Test func presentRecordsBuffersAndPaintsOnlyDiffs() {
        let backend = TestBackend(size: Size(width: 6, height: 2))
        let first = Buffer(lines: ["Notes ", "漢字  "])
        backend.present(first)
        var second = first
        second.write("!", at: Point(x: 5, y: 0))
        backend.present(second)
        #expect(backend.presented == [first, second])
        #expect(backend.screen == second)
        #expect(backend.diffs.last?.runs == [BufferDiff.Run(origin: Point(x: 5, y: 0), cells: [Cell("!")])])
    }

    @Test func resizeClearsTheScreenAndQueuesAnEvent() {
        let backend = TestBackend(size: Size(width: 4, height: 1))
        backend.present(Buffer(lines: ["abcd"]))
        backend.resize(to: Size(width: 3, height: 2))
        #expect(backend.size == Size(width: 3, height: 2))
        #expect(backend.screen == Buffer(size: Size(width: 3, height: 2)))
        #expect(backend.nextEvent(timeout: nil) == .resize(Size(width: 3, height: 2)))
        backend.present(Buffer(lines: ["xyz", "漢 "]))
        #expect(backend.screen == Buffer(lines: ["xyz", "漢 "]))
    }

    @Test func resumeRepaintsEverything() {
        let backend = TestBackend(size: Size(width: 3, height: 1))
        let screen = Buffer(lines: ["abc"])
        backend.present(screen)
        backend.suspend()
        #expect(backend.isSuspended)
        backend.resume()
        #expect(!backend.isSuspended)
        backend.present(screen)
        #expect(backend.diffs.last?.runs.map(\.text) == ["abc"])
    }
}
