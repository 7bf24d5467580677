import Testing

@testable import NotesCore

@Suite struct HLCTests {
    @Test func tickIsMonotonicWhenTheWallClockStallsOrGoesBack() {
        var clock = HybridLogicalClock()
        let a = clock.tick(now: 1000)
        let b = clock.tick(now: 1000)
        let c = clock.tick(now: 900)
        let d = clock.tick(now: 2000)
        #expect(a < b && b < c && c < d)
        #expect(a == HLC(millis: 1000, counter: 0))
        #expect(c == HLC(millis: 1000, counter: 2))
        #expect(d == HLC(millis: 2000, counter: 0))
    }

    @Test func receiveFollowsARemoteClockThatIsAhead() {
        var clock = HybridLogicalClock()
        _ = clock.tick(now: 1000)
        let accepted = clock.receive(HLC(millis: 5000, counter: 3), now: 1000)
        let next = clock.tick(now: 1000)
        #expect(accepted)
        #expect(next == HLC(millis: 5000, counter: 4))
    }

    @Test func aStampMoreThanADayAheadIsRefusedAsClockSkew() {
        var clock = HybridLogicalClock()
        let now: Int64 = 1_700_000_000_000
        let future = HLC(millis: now + HybridLogicalClock.maxForwardDrift + 1)
        let accepted = clock.receive(future, now: now)
        let next = clock.tick(now: now)
        #expect(!accepted)
        #expect(next == HLC(millis: now))
    }

    @Test func counterOverflowCarriesIntoTheMilliseconds() {
        var clock = HybridLogicalClock(last: HLC(millis: 10, counter: .max))
        let next = clock.tick(now: 5)
        #expect(next == HLC(millis: 11, counter: 0))
    }

    @Test func packedAndTextFormsRoundTripAndSortLikeStamps() {
        let stamps = [HLC(millis: 0), HLC(millis: 1, counter: 65535), HLC(millis: 1_700_000_000_123, counter: 7)]
        for s in stamps {
            #expect(HLC(packed: s.packed) == s)
            #expect(HLC(s.description) == s)
        }
        #expect(stamps.map(\.description) == stamps.map(\.description).sorted())
        #expect(stamps.map(\.packed) == stamps.map(\.packed).sorted())
        #expect(HLC("12-0001") == nil)
        #expect(HLC("garbage") == nil)
    }
}
