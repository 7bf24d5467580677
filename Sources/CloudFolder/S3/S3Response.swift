/// One answer of an S3 server: status, headers (names lowercased) and body.
public struct S3Response: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The `<Code>` and `<Message>` of an S3 XML error body; nil for what is not one.
    public var errorCodeAndMessage: (code: String, message: String?)? {
        S3XML.errorCodeAndMessage(body)
    }
}
