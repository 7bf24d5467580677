import CloudFolder
import Foundation
import Testing

/// How S3 answers become `CloudError` codes (ARCHITECTURE §4), and bodies that are not what S3
/// sends parse as nothing, never a crash.
@Suite struct S3ResponseTests {
    static func error(_ code: String, _ message: String = "m") -> [UInt8] {
        Array("<?xml version=\"1.0\"?><Error><Code>\(code)</Code><Message>\(message)</Message></Error>".utf8)
    }

    static let table: [(Int, [UInt8], CloudError.Code)] = [
        (404, error("NoSuchKey"), .unknownItem), (404, [], .unknownItem),
        (404, error("NoSuchBucket"), .accountTemporarilyUnavailable), (412, [], .serverRecordChanged),
        (403, error("SignatureDoesNotMatch"), .notAuthenticated), (403, error("InvalidAccessKeyId"), .notAuthenticated),
        (503, error("SlowDown"), .requestRateLimited), (429, [], .requestRateLimited),
        (400, error("TooManyRequests"), .requestRateLimited), (409, [], .zoneBusy),
        (409, error("ConditionalRequestConflict"), .zoneBusy), (403, error("QuotaExceeded"), .quotaExceeded),
        (507, error("XMinioStorageFull"), .quotaExceeded), (507, [], .quotaExceeded),
        (400, error("XMinioAdminBucketQuotaExceeded"), .quotaExceeded),
        (403, error("InsufficientStorageSpace"), .quotaExceeded),
        (403, error("AccessDenied", "Storage cap exceeded."), .quotaExceeded),
        (403, error("AccessDenied"), .notAuthenticated), (400, error("ExpiredToken"), .notAuthenticated),
        (400, error("XAmzContentSHA256Mismatch"), .internalError),
        (500, Array("<html>oops".utf8), .networkFailure), (400, Array("\u{0}\u{1}garbage".utf8), .internalError),
        (400, error("SomethingNobodyDocumented"), .internalError),
    ]

    @Test(arguments: table.indices)
    func answersMapToTheirCodes(_ index: Int) {
        let (status, body, code) = Self.table[index]
        let error = S3Response(status: status, headers: [:], body: body)
            .cloudError(operation: "get", key: "p/k.json", bucket: "notes")
        #expect(error.code == code, "HTTP \(status)")
        #expect(error.userMessage.contains("s3://notes/p/k.json"))
    }

    @Test func theServersReasonIsInTheMessageAndABucketIsNamed() {
        let refused = S3Response(status: 403, headers: [:], body: Self.error("InvalidAccessKeyId", "no such key id"))
            .cloudError(operation: "list", key: "", bucket: "notes")
        #expect(refused.message.contains("InvalidAccessKeyId: no such key id"))
        let missing = S3Response(status: 404, headers: [:], body: Self.error("NoSuchBucket"))
            .cloudError(operation: "list", key: "", bucket: "my-notes")
        #expect(missing.message.contains("the S3 bucket my-notes does not exist"))
    }

    @Test func retryAfterIsReadAsSecondsOrAnHTTPDateAndClamped() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        func wait(_ header: String?) -> Double? {
            let response = S3Response(
                status: 503, headers: header.map { ["retry-after": $0] } ?? [:], body: Self.error("SlowDown"))
            let error = response.cloudError(operation: "put", key: "k", bucket: "b", now: now)
            #expect(error.code == .requestRateLimited)
            #expect(error.retryAfter == response.retryAfter(now: now))
            return error.retryAfter
        }
        #expect(wait("7") == 7)
        #expect(wait(" 0 ") == 0)
        #expect(wait("Sun, 06 Nov 1994 08:50:07 GMT") == 30)
        #expect(wait("Sunday, 06-Nov-94 08:49:47 GMT") == 10)
        // A date already past is "now"; a huge wait is the cap; garbage is no hint at all.
        #expect(wait("Sun, 06 Nov 1994 08:00:00 GMT") == 0)
        #expect(wait("99999999999999999999999") == 3600)
        #expect(wait("-5") == nil)
        #expect(wait("soon") == nil)
        #expect(wait("1e400") == nil)
        #expect(wait(nil) == nil)
    }

    @Test func aConflictIsToldApartFromOtherAnswers() {
        #expect(
            S3Response(status: 409, headers: [:], body: Self.error("ConditionalRequestConflict")).isConcurrentConflict)
        #expect(S3Response(status: 409, headers: [:], body: Self.error("OperationAborted")).isConcurrentConflict)
        #expect(S3Response(status: 409, headers: [:], body: []).isConcurrentConflict)
        #expect(!S3Response(status: 409, headers: [:], body: Self.error("BucketNotEmpty")).isConcurrentConflict)
        #expect(!S3Response(status: 412, headers: [:], body: []).isConcurrentConflict)
    }

    @Test func listingsParseAndGarbageIsNil() {
        let page = S3XML.listPage(
            Array(
                ("<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>p/a.json</Key></Contents>"
                    + "<CommonPrefixes><Prefix>p/d/</Prefix></CommonPrefixes>"
                    + "<NextContinuationToken>tok</NextContinuationToken></ListBucketResult>").utf8))
        #expect(page?.keys == ["p/a.json"])
        #expect(page?.commonPrefixes == ["p/d/"])
        #expect(page?.isTruncated == true)
        #expect(page?.nextContinuationToken == "tok")
        for garbage in ["", "<Error><Code>X</Code></Error>", "<ListBucketResult><Contents>", "\u{FEFF}{}", "<<<"] {
            #expect(S3XML.listPage(Array(garbage.utf8)) == nil, "\(garbage)")
        }
        #expect(S3XML.errorCodeAndMessage(Array("<ListBucketResult/>".utf8)) == nil)
        // Names that are not UTF-8 trap Foundation's parser on Linux: refused before it sees them.
        for bytes in [
            [0x3C, 0x61, 0xFF, 0x3E], Array("<Error><Code".utf8) + [0xC3, 0x28, 0x3E], [0x00, 0x3C, 0x00, 0x61],
        ] {
            #expect(S3XML.errorCodeAndMessage(bytes) == nil)
            #expect(S3XML.listPage(bytes) == nil)
            #expect(S3XML.value("CompleteMultipartUploadResult/ETag", in: bytes) == nil)
        }
        // A listing's ETags are given only when every key has one; a multipart answer's ETag.
        let tagged = S3XML.listPage(
            Array(
                ("<ListBucketResult><Contents><Key>a</Key><ETag>\"1\"</ETag></Contents>"
                    + "<Contents><Key>b</Key><ETag>\"2\"</ETag></Contents></ListBucketResult>").utf8))
        #expect(tagged?.etags == ["\"1\"", "\"2\""])
        let partly = S3XML.listPage(
            Array(
                ("<ListBucketResult><Contents><Key>a</Key><ETag>\"1\"</ETag></Contents>"
                    + "<Contents><Key>b</Key></Contents></ListBucketResult>").utf8))
        #expect(partly?.keys == ["a", "b"] && partly?.etags == [])
        let completed =
            "<CompleteMultipartUploadResult><Key>k</Key><ETag>\"e-2\"</ETag></CompleteMultipartUploadResult>"
        #expect(S3XML.value("CompleteMultipartUploadResult/ETag", in: Array(completed.utf8)) == "\"e-2\"")
        #expect(S3XML.value("CompleteMultipartUploadResult/ETag", in: Array("<<<".utf8)) == nil)
        let declared = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SlowDown</Code></Error>"
        #expect(S3XML.errorCodeAndMessage(Array(declared.utf8))?.code == "SlowDown")
        let doctype = "<!DOCTYPE e [<!ENTITY x \"y\">]><Error><Code>&x;</Code></Error>"
        #expect(S3XML.errorCodeAndMessage(Array(doctype.utf8)) == nil)
    }
}
