import CloudFolder
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
        (503, error("SlowDown"), .serviceUnavailable), (429, [], .serviceUnavailable), (409, [], .zoneBusy),
        (500, Array("<html>oops".utf8), .networkFailure), (400, Array("\u{0}\u{1}garbage".utf8), .internalError),
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
    }
}
