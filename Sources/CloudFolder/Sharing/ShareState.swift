/// What a member's answer to an invitation says (SYNC-FORMAT "Shared containers", Answers).
public enum ShareAnswer: String, Sendable, CaseIterable {
    case accepted, left
}

/// A shared place as a reader has checked it: the share, its owner, the membership log, the
/// members' answers, and the files that did not check out.
public struct ShareState: Sendable {
    public let share: String
    public let owner: IdentityCode
    public let log: MembershipLog
    /// Per member, the newest answer that checks out, and the entry it was given at.
    public let answers: [String: (answer: ShareAnswer, entry: Int64)]
    /// Files refused, each named with why (one sentence each).
    public let problems: [String]

    /// The entry that last invited `member` (listed not removed after being absent or removed).
    func invitedAt(_ member: String) -> Int64? {
        var invited: Int64?
        var wasIn = false
        for entry in log.entries {
            let isIn = entry.member(member).map { $0.status != .removed } ?? false
            if isIn, !wasIn { invited = entry.number }
            wasIn = isIn
        }
        return invited
    }

    /// A member's status as `share list` shows it: `removed` when the newest entry says so;
    /// else their newest answer since they were last invited (`accepted`, `left`); else the
    /// entry's status.
    public func shownStatus(of member: String) -> String {
        guard let line = log.head.member(member) else { return "not a member" }
        if line.status == .removed { return MemberStatus.removed.rawValue }
        if let answer = answers[member], answer.entry >= invitedAt(member) ?? Int64.max {
            return answer.answer.rawValue
        }
        return line.status.rawValue
    }
}
