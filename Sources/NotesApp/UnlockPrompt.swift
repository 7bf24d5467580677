/// The passphrase dialog of an encrypted cloud folder (SYNC-FORMAT rule 14) whose key this
/// device does not remember: the app opens on the local store, sync waits, and the dialog asks.
/// The passphrase is never drawn (one • per character typed) and leaves the state once sent.
public struct UnlockPrompt: Equatable, Sendable {
    /// What is typed so far.
    var entered = ""
    /// Why the last try failed ("wrong passphrase"), shown under the field.
    var error: String?
    /// A passphrase was sent and its key is being derived (about half a second).
    var checking = false

    public init() {}
}
