import CloudFolder
import Foundation

/// When to try again after a failed sync: exponential backoff with jitter, honouring a
/// retry-after hint (ARCHITECTURE §4: serviceUnavailable, zoneBusy; the folder coming back is also
/// noticed by the watcher).
public struct RetryPolicy: Sendable, Equatable {
    /// Seconds before the first retry.
    public var initial: Double
    public var multiplier: Double
    /// The longest wait, in seconds.
    public var maximum: Double
    /// The fraction of the delay drawn at random either way (0.2: ±20 %).
    public var jitter: Double

    public init(initial: Double = 1, multiplier: Double = 2, maximum: Double = 300, jitter: Double = 0.2) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The wait before retry number `attempt` (1 for the first), with `unit` a random number in
    /// 0..<1. A `retryAfter` hint is a floor: never retry sooner than the folder asked.
    public func delay(attempt: Int, retryAfter: Double? = nil, unit: Double) -> Double {
        let exponential = min(maximum, initial * pow(multiplier, Double(max(0, attempt - 1))))
        let jittered = exponential * (1 - jitter + 2 * jitter * unit)
        return max(retryAfter ?? 0, min(maximum, jittered))
    }

    /// Whether an error is worth retrying on a timer (the others wait for the user or the folder).
    public static func isRetryable(_ code: CloudError.Code) -> Bool {
        switch code {
        case .networkUnavailable, .networkFailure, .serviceUnavailable, .zoneBusy, .requestRateLimited, .quotaExceeded,
            .accountTemporarilyUnavailable, .permissionFailure, .internalError:
            return true
        default:
            return false
        }
    }
}
