import Foundation

/// HTTP answers of an S3 server as `CloudError` codes, so the engine picks its strategy as it
/// does for a directory (ARCHITECTURE §4). Secrets never appear in a message.
extension S3Response {
    /// Error codes S3-compatible stores send for a full bucket or account: Ceph RGW and
    /// versitygw `QuotaExceeded`, MinIO `XMinioStorageFull` and its bucket quota, Huawei OBS
    /// `InsufficientStorageSpace`, Backblaze `StorageCapExceeded`.
    static let quotaCodes: Set<String> = [
        "QuotaExceeded", "XMinioStorageFull", "XMinioAdminBucketQuotaExceeded", "InsufficientStorageSpace",
        "StorageCapExceeded", "StorageQuotaExceeded",
    ]

    /// Codes of a concurrent request on the same key: worth sending again.
    static let conflictCodes: Set<String> = ["ConditionalRequestConflict", "OperationAborted"]

    /// The longest `Retry-After` honoured, in seconds: a server asking for more is waited an hour.
    static let longestRetryAfter: Double = 3600

    /// The error an unsuccessful answer means; `bucket` names the bucket in the message, `now`
    /// reads a `Retry-After` given as an HTTP date.
    public func cloudError(operation: String, key: String, bucket: String, now: Date = Date()) -> CloudError {
        let parsed = errorCodeAndMessage
        let reason = parsed.map { "\($0.code)" + ($0.message.map { ": \($0)" } ?? "") } ?? "HTTP \(status)"
        let path = "s3://\(bucket)/\(key)"
        let code = parsed?.code ?? ""
        if code == "NoSuchBucket" {
            return CloudError(
                .accountTemporarilyUnavailable,
                "the S3 bucket \(bucket) does not exist (\(operation)); create it or correct the location",
                path: path)
        }
        if Self.quotaCodes.contains(code) || status == 507 || isCapMessage(parsed?.message) {
            return CloudError(.quotaExceeded, "the S3 bucket \(bucket) is full (\(reason))", path: path)
        }
        switch (status, code) {
        case (404, _):
            return CloudError(.unknownItem, "\(operation): no such object", path: path)
        case (412, _):
            return CloudError(.serverRecordChanged, "\(operation): the object already exists", path: path)
        case (403, _), (401, _), (_, "InvalidAccessKeyId"), (_, "SignatureDoesNotMatch"), (_, "ExpiredToken"):
            return CloudError(.notAuthenticated, "the S3 server refused the credentials (\(reason))", path: path)
        case (429, _), (503, _), (_, "SlowDown"), (_, "TooManyRequests"):
            let wait = retryAfter(now: now)
            return CloudError(
                .requestRateLimited, "the S3 server asks to slow down (\(reason))", path: path, retryAfter: wait)
        case (409, _):
            return CloudError(.zoneBusy, "\(operation): a concurrent request on the object (\(reason))", path: path)
        case (500..., _):
            return CloudError(.networkFailure, "the S3 server failed (\(reason))", path: path)
        default:
            return CloudError(
                .internalError, "\(operation): unexpected answer from the S3 server (\(reason))", path: path)
        }
    }

    /// Whether this answer is a conflict with a concurrent request on the key (409
    /// ConditionalRequestConflict): the request may simply be sent again.
    public var isConcurrentConflict: Bool {
        guard status == 409 else { return false }
        guard let code = errorCodeAndMessage?.code else { return true }
        return Self.conflictCodes.contains(code)
    }

    /// The `Retry-After` header in seconds from `now`: a number of seconds or an HTTP date;
    /// nil when absent or unreadable, clamped to 0...`longestRetryAfter`.
    public func retryAfter(now: Date) -> Double? {
        guard let text = headers["retry-after"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return nil
        }
        var seconds: Double?
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Digits only: a count of seconds (a long one is simply the cap).
            seconds = text.utf8.count > 6 ? Self.longestRetryAfter : Double(text)
        } else if let date = Self.httpDate(text) {
            seconds = date.timeIntervalSince(now)
        }
        guard let seconds, seconds.isFinite else { return nil }
        return min(max(seconds, 0), Self.longestRetryAfter)
    }

    /// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850 and asctime forms too).
    static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    /// Backblaze answers a reached storage cap with a 403 whose message says so.
    private func isCapMessage(_ message: String?) -> Bool {
        guard status == 403, let message = message?.lowercased() else { return false }
        return message.contains("cap exceeded") || message.contains("quota exceeded")
    }
}
