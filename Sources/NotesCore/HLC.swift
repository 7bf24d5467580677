import Foundation

/// A hybrid logical clock stamp: wall-clock milliseconds plus a counter (SYNC-FORMAT rule 7).
///
/// Stamps order events across devices without trusting any one clock: a device's next stamp
/// is always above every stamp it has seen. Packed into an Int64 (`millis << 16 | counter`)
/// so SQLite sorts it as a number.
public struct HLC: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var millis: Int64
    public var counter: UInt16

    public init(millis: Int64, counter: UInt16 = 0) {
        self.millis = millis
        self.counter = counter
    }

    public init(packed: Int64) {
        self.millis = packed >> 16
        self.counter = UInt16(truncatingIfNeeded: packed & 0xFFFF)
    }

    public static let zero = HLC(millis: 0)

    public var packed: Int64 { millis << 16 | Int64(counter) }

    /// `0001700000000000-0003`: fixed width, so name order is stamp order.
    public var description: String {
        let ms = String(millis)
        let c = String(counter, radix: 16)
        return String(repeating: "0", count: max(0, 16 - ms.count)) + ms + "-"
            + String(repeating: "0", count: max(0, 4 - c.count)) + c
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 16, parts[1].count == 4,
            let ms = Int64(parts[0]), ms >= 0, let c = UInt16(parts[1], radix: 16)
        else { return nil }
        self.init(millis: ms, counter: c)
    }

    public static func < (a: HLC, b: HLC) -> Bool { (a.millis, a.counter) < (b.millis, b.counter) }
}

/// The clock that hands out HLC stamps on one device.
public struct HybridLogicalClock: Sendable, Equatable {
    /// How far ahead of our wall clock a remote stamp may be before we stop following it.
    public static let maxForwardDrift: Int64 = 24 * 60 * 60 * 1000

    public private(set) var last: HLC

    public init(last: HLC = .zero) { self.last = last }

    /// The stamp for a local event at wall time `now` (milliseconds).
    public mutating func tick(now: Int64) -> HLC {
        if now > last.millis {
            last = HLC(millis: now)
        } else {
            advanceCounter()
        }
        return last
    }

    /// Folds a remote stamp into the clock; returns false (and ignores it) when the stamp is
    /// more than a day ahead of `now`, which the caller reports as clock skew.
    @discardableResult
    public mutating func receive(_ remote: HLC, now: Int64) -> Bool {
        guard remote.millis <= now + Self.maxForwardDrift else { return false }
        if remote > last { last = remote }
        return true
    }

    private mutating func advanceCounter() {
        if last.counter == UInt16.max {
            last = HLC(millis: last.millis + 1)
        } else {
            last.counter += 1
        }
    }
}
