import Foundation
import NotesCore
import Testing

/// `Handoff` carries a search's found notes from the thread that reads them to the one that
/// prints them: in order, never more than its capacity ahead, and a consumer that stops
/// releases the producer.
@Suite struct HandoffTests {
    @Test func elementsArriveInOrderAndTheProducerStaysWithinTheCapacity() throws {
        let handoff = Handoff<Int>(capacity: 2)
        // One signal per put that returned: what the consumer counts of them is a lower bound
        // of how far the producer was ahead.
        let putsDone = DispatchSemaphore(value: 0)
        let count = 20_000
        let producer = BackgroundResult(ownThread: {
            for value in 0..<count {
                guard handoff.put(value) else { return false }
                putsDone.signal()
            }
            handoff.close()
            return true
        })
        var taken = 0
        var returned = 0
        var ahead = 0
        while let value = handoff.take() {
            #expect(value == taken)
            taken += 1
            // Once `taken` are taken, at most `taken + capacity` puts can have returned.
            while putsDone.wait(timeout: .now()) == .success { returned += 1 }
            ahead = max(ahead, returned - taken)
        }
        #expect(taken == count)
        #expect(ahead <= 2)
        #expect(try producer.get())
        #expect(handoff.take() == nil, "a closed handoff stays empty")
    }

    @Test func aConsumerThatCancelsReleasesAProducerWaitingForRoom() throws {
        let handoff = Handoff<Int>(capacity: 1)
        let producer = BackgroundResult(ownThread: {
            var value = 0
            // Puts until the consumer cancels: without the release this never returns.
            while handoff.put(value) { value += 1 }
            return value
        })
        #expect(handoff.take() == 0)
        handoff.cancel()
        let refusedAt = try producer.get()
        #expect(refusedAt >= 1)
        #expect(!handoff.put(99), "a cancelled handoff takes nothing more")
    }
}
