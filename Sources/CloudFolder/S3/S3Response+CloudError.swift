/// HTTP answers of an S3 server as `CloudError` codes, so the engine picks its strategy as it
/// does for a directory (ARCHITECTURE §4). Secrets never appear in a message.
extension S3Response {
    /// The error an unsuccessful answer means; `bucket` names the bucket in the message.
    public func cloudError(operation: String, key: String, bucket: String) -> CloudError {
        let parsed = errorCodeAndMessage
        let reason = parsed.map { "\($0.code)" + ($0.message.map { ": \($0)" } ?? "") } ?? "HTTP \(status)"
        let path = "s3://\(bucket)/\(key)"
        switch (status, parsed?.code) {
        case (_, "NoSuchBucket"):
            return CloudError(
                .accountTemporarilyUnavailable, "the S3 bucket \(bucket) does not exist (\(operation))", path: path)
        case (404, _):
            return CloudError(.unknownItem, "\(operation): no such object", path: path)
        case (412, _):
            return CloudError(.serverRecordChanged, "\(operation): the object already exists", path: path)
        case (403, _), (401, _), (_, "InvalidAccessKeyId"), (_, "SignatureDoesNotMatch"):
            return CloudError(.notAuthenticated, "the S3 server refused the credentials (\(reason))", path: path)
        case (429, _), (503, _), (_, "SlowDown"):
            return CloudError(.serviceUnavailable, "the S3 server asks to slow down (\(reason))", path: path)
        case (409, _):
            return CloudError(.zoneBusy, "\(operation): a concurrent request on the object (\(reason))", path: path)
        case (500..., _):
            return CloudError(.networkFailure, "the S3 server failed (\(reason))", path: path)
        default:
            return CloudError(
                .internalError, "\(operation): unexpected answer from the S3 server (\(reason))", path: path)
        }
    }
}
