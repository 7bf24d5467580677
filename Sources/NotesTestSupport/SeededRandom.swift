import Foundation

/// A small deterministic generator (SplitMix64), so a failing property test or random schedule
/// replays from the seed its message prints.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The seed for a randomized test: `CLOUDNOTES_SEED` from the environment when set (to
    /// replay a printed failure), else `fallback`. Print it in the test's failure messages.
    public static func seed(default fallback: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["CLOUDNOTES_SEED"].flatMap { UInt64($0) } ?? fallback
    }

    /// A number in `0..<bound` (0 when `bound` is 0).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A string of `count` scalars drawn from `alphabet`.
    public mutating func string(from alphabet: [Unicode.Scalar], count: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count {
            guard let scalar = alphabet.randomElement(using: &self) else { break }
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
