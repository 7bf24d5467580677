import Foundation

/// A hybrid logical clock stamp: wall-clock milliseconds plus a counter (SYNC-FORMAT rule 7).
///
/// Stamps order events across devices without trusting any one clock: a device's next stamp
/// is always above every stamp it has seen. Packed into an Int64 (`millis << 16 | counter`)
/// so SQLite sorts it as a number.
///
/// The range (SYNC-FORMAT "HLC range"): `millis` in `0...maxMillis` (2^47 − 1 ms, the year
/// 6429), so the packed value is never negative. Enforced on write (`init(millis:)` clamps, the
/// clock saturates) and on read (`init?(_:)` refuses a stamp outside it).
public struct HLC: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The largest physical time a stamp may carry: packed, it is still a positive Int64.
    public static let maxMillis: Int64 = (1 << 47) - 1

    public private(set) var millis: Int64
    public var counter: UInt16

    /// Clamps `millis` into `0...maxMillis` (a wall clock outside it is wrong; a stamp never is).
    public init(millis: Int64, counter: UInt16 = 0) {
        self.millis = min(max(millis, 0), Self.maxMillis)
        self.counter = counter
    }

    /// From the store's integer; a negative one (written by an older build that wrapped a stamp
    /// past the range) reads as `zero` rather than as a stamp no reader accepts.
    public init(packed: Int64) {
        let valid = max(packed, 0)
        self.init(millis: valid >> 16, counter: UInt16(truncatingIfNeeded: valid & 0xFFFF))
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

    /// Parses the fixed-width form; nil when malformed or outside the range.
    public init?(_ text: String) {
        guard case .valid(let hlc) = Self.parse(text) else { return nil }
        self = hlc
    }

    /// What a stamp's text is: a stamp, well formed but outside the range, or not a stamp.
    public enum Parsed: Sendable, Equatable {
        case valid(HLC)
        case outOfRange
        case malformed
    }

    public static func parse(_ text: String) -> Parsed {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 16, parts[1].utf8.count == 4,
            parts[0].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            parts[1].utf8.allSatisfy({ Array("0123456789abcdef".utf8).contains($0) }),
            let ms = Int64(parts[0]), let c = UInt16(parts[1], radix: 16)
        else { return .malformed }
        guard ms <= maxMillis else { return .outOfRange }
        return .valid(HLC(millis: ms, counter: c))
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
        if min(now, HLC.maxMillis) > last.millis {
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
        // `remote.millis` is in range, so this cannot overflow whatever `now` is.
        guard remote.millis - Self.maxForwardDrift <= now else { return false }
        if remote > last { last = remote }
        return true
    }

    private mutating func advanceCounter() {
        if last.counter == UInt16.max {
            // At the end of the range the clock saturates (stamps repeat) rather than wrap.
            guard last.millis < HLC.maxMillis else { return }
            last = HLC(millis: last.millis + 1)
        } else {
            last.counter += 1
        }
    }
}
