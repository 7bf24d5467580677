/// Why something in a shared place was refused (SYNC-FORMAT "Shared containers"): a code to
/// match on and one sentence for the person.
public struct ShareError: Error, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// A file is not of the format (damaged, cut short, or not a file of ours).
        case malformed
        /// A file's signature does not verify, or its signer may not write it.
        case notAllowed
        /// A file written by a newer program.
        case newerFormat
        /// The membership log is shorter than, or breaks before, the entry this reader checked.
        case rolledBack
        /// The membership log holds other bytes at an entry this reader checked.
        case forked
        /// A key box that is not this identity's, or does not open.
        case notForYou
        /// Something this identity asked for is not there (yet).
        case missing
        /// The place holds something else, or a write-once path is taken.
        case placeTaken
        /// The storage failed (a read or write of the place).
        case storage
        /// What was asked is not possible (a member twice, removing the owner, …).
        case invalid
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
