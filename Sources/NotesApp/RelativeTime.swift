import Foundation

/// Short and long forms of "how long ago" for list rows ("2m", "3d") and the status bar
/// ("2 min ago").
enum RelativeTime {
    /// "now", "5m", "3h", "268d", "1y": at most 4 columns for anything under 1000 years.
    static func short(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "now"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3600)h"
        case ..<(365 * 86_400): return "\(seconds / 86_400)d"
        default: return "\(seconds / (365 * 86_400))y"
        }
    }

    /// "just now", "2 min ago", "3 h ago", "4 days ago".
    static func long(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        default:
            let days = seconds / 86_400
            return days == 1 ? "1 day ago" : "\(days) days ago"
        }
    }
}
