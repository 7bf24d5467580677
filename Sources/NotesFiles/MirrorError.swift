/// A failure of the notes folder, as one sentence a user reads.
public struct MirrorError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(_ message: String) { self.message = message }
}
