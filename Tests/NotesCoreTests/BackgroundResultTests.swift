import Foundation
import NotesCore
import NotesTestSupport
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

    /// `UUID(hexText:)` reads the 8-4-4-4-12 form in either case as Foundation's
    /// `UUID(uuidString:)` does, and whatever else it reads, Foundation reads to the same value
    /// (Foundation's `sscanf` also takes a sign inside a field, which no stored id has): random
    /// ids, and those ids with a byte changed, left out or added.
    @Test func idsParseAsFoundationParsesThem() {
        let seed = SeededRandom.seed(default: 20_261_130)
        var random = SeededRandom(seed: seed)
        let bytes = Array("0123456789abcdefABCDEFgG-+ x{}\u{0}é".utf8)
        var mutatedRead = 0
        for _ in 0..<5_000 {
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &value) { for i in 0..<16 { $0[i] = UInt8(truncatingIfNeeded: random.next()) } }
            var text = UUID(uuid: value).uuidString
            if random.below(2) == 0 { text = text.lowercased() }
            #expect(UUID(hexText: text) == UUID(uuid: value), "\(text) (CLOUDNOTES_SEED=\(seed))")
            #expect(UUID(uuidString: text) == UUID(uuid: value))
            var changed = Array(text.utf8)
            switch random.below(3) {
            case 0: changed[random.below(changed.count)] = bytes[random.below(bytes.count)]
            case 1: changed.remove(at: random.below(changed.count))
            default: changed.insert(bytes[random.below(bytes.count)], at: random.below(changed.count + 1))
            }
            let mutated = String(decoding: changed, as: UTF8.self)
            if let read = UUID(hexText: mutated) {
                mutatedRead += 1
                #expect(read == UUID(uuidString: mutated), "\(mutated) (CLOUDNOTES_SEED=\(seed))")
            }
        }
        #expect(mutatedRead > 100, "a digit changed for a digit still reads")
        #expect(UUID(hexText: "") == nil)
        #expect(UUID(hexText: "0001020304050607-0809-0a0b0c0d0eff0") == nil)
        #expect(
            UUID(hexText: "00010203-0405-0607-0809-0A0B0C0D0EFF")?.lowercasedString
                == "00010203-0405-0607-0809-0a0b0c0d0eff")
    }
}
