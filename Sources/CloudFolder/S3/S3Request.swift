import Foundation

/// One signed request as `S3Client` hands it to its transport: what to send, and how much of
/// an answer to accept. A value, so a test transport can look at it and a real one can send it.
public struct S3Request: Sendable {
    public var method: String
    public var url: URL
    /// Header names as given (the transport sends them as they are).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The most answer body bytes kept: a longer answer is refused (`limitExceeded`) while it
    /// arrives, so a server ignoring `Range` cannot fill memory.
    public var maxAnswerBytes: Int
    /// Seconds without a byte moving either way before the request counts as failed
    /// (`networkFailure`); the whole request may take four times this.
    public var timeout: TimeInterval

    public init(
        method: String, url: URL, headers: [(name: String, value: String)], body: [UInt8], maxAnswerBytes: Int,
        timeout: TimeInterval
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.maxAnswerBytes = maxAnswerBytes
        self.timeout = timeout
    }

    /// The value of header `name` (any case), if set.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
