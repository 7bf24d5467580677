/// How a shared notebook is shared with this account, as its last sync read the membership:
/// who owns it and this account's role there (SYNC-FORMAT "Notes in a shared place"). The app's
/// picker and `notebooks` show it; the store's refusals rest on the read-only mark beside it.
public struct NotebookSharing: Sendable, Equatable {
    /// The owner as people know them: a name and fingerprint, or "you" on the owner's devices.
    public var owner: String
    /// This account's role in words: "owner", "admin", "read-write", "read-only" or "removed".
    public var role: String

    public init(owner: String, role: String) {
        self.owner = owner
        self.role = role
    }

    /// As the store keeps it: the role, a line break, the owner.
    var stored: String { role + "\n" + owner }

    /// As the store keeps it (`stored`); nil when `value` is not in that form.
    init?(stored value: String) {
        let parts = value.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        self.init(owner: String(parts[1]), role: String(parts[0]))
    }

    /// One line for a list: "shared by Ann (1234 …) · read-only", or "shared by you".
    public var summary: String {
        role == "owner" ? "shared by you" : "shared by \(owner) · \(role)"
    }
}
