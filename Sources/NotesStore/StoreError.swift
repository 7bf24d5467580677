import Foundation

/// An error at the store's boundary, with a code callers can switch on and a message for users.
public struct StoreError: Error, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// No note matches the reference.
        case notFound
        /// A reference matches several notes; `candidates` lists them.
        case ambiguous
        /// Input that cannot be stored (for example text that is not UTF-8).
        case invalidInput
        /// The database file is damaged or is not a CloudNotes database; it was not modified.
        case corrupt
        /// Another process held the database longer than the busy timeout.
        case locked
        /// The data directory or database cannot be written.
        case readOnly
        /// Any other I/O failure (disk full, permissions).
        case io
    }

    public var code: Code
    public var message: String
    public var candidates: [NoteSummary]

    public init(_ code: Code, _ message: String, candidates: [NoteSummary] = []) {
        self.code = code
        self.message = message
        self.candidates = candidates
    }

    public var description: String { message }

    /// Whether the user can fix this (exit code 1) rather than a bug (exit code 2).
    public var isUserError: Bool { true }
}
