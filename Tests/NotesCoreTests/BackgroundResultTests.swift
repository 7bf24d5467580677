import Foundation
import NotesCore
import Testing

@Suite struct BackgroundResultTests {
    @Test func aValueComputedElsewhereIsWaitedForAndErrorsArriveToo() throws {
        // The computation waits for the test, so "not finished yet" is a fact, not a race.
        let gate = DispatchSemaphore(value: 0)
        let slow = BackgroundResult { () -> Int in
            gate.wait()
            return 42
        }
        #expect(!slow.isFinished)
        gate.signal()
        #expect(try slow.get() == 42)
        #expect(slow.isFinished)
        #expect(try slow.get() == 42, "asking twice gives the same value")
        struct Failure: Error {}
        let failing = BackgroundResult<Int> { throw Failure() }
        #expect(throws: Failure.self) { try failing.get() }
        let inline = BackgroundResult(async: false) { "here" }
        #expect(inline.isFinished)
        #expect(try inline.get() == "here")
    }

    @Test func idsInLowercaseMatchFoundationsFormatting() {
        for _ in 0..<500 {
            let id = UUID()
            #expect(id.lowercasedString == id.uuidString.lowercased())
        }
        #expect(
            UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255)).lowercasedString
                == "00010203-0405-0607-0809-0a0b0c0d0eff")
    }
}
