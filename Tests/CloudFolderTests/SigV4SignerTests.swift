import Crypto
import Foundation
import Testing

@testable import CloudFolder

/// Signature V4 against AWS's published test suite (vectors in SigV4Vectors.swift).
@Suite struct SigV4SignerTests {
    static let date = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z

    @Test(arguments: SigV4Vector.all)
    func signsAsTheTestSuiteSays(_ vector: SigV4Vector) throws {
        let signer = SigV4Signer(
            credentials: .init(
                accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                sessionToken: vector.sessionToken),
            region: "us-east-1", service: "service")
        let payloadHash = SigV4Signer.hex(SHA256.hash(data: Array(vector.body.utf8)))
        let request = SigV4Signer.Request(
            method: vector.method, path: vector.path, query: vector.query, headers: vector.headers,
            payloadHash: payloadHash)
        let added = signer.sign(request, at: Self.date)
        var withDate = request
        withDate.headers += added.filter { $0.0 != "Authorization" }
        let (canonical, signedHeaders) = SigV4Signer.canonicalRequest(withDate)
        #expect(canonical == vector.canonicalRequest)
        let scope = "20150830/us-east-1/service/aws4_request"
        let toSign = SigV4Signer.stringToSign(canonical, timestamp: "20150830T123600Z", scope: scope)
        if !vector.stringToSign.isEmpty { #expect(toSign == vector.stringToSign) }
        let authorization = try #require(added.first { $0.0 == "Authorization" }?.1)
        #expect(
            authorization
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\(scope), SignedHeaders=\(signedHeaders), "
                + "Signature=\(vector.signature)")
        #expect(added.contains { $0 == ("X-Amz-Date", "20150830T123600Z") })
    }

    @Test func timestampsAreUTCAndZeroPadded() {
        #expect(SigV4Signer.timestamp(Date(timeIntervalSince1970: 0)) == "19700101T000000Z")
        #expect(SigV4Signer.timestamp(Self.date) == "20150830T123600Z")
    }

    @Test func keysAreEncodedTheS3Way() {
        #expect(SigV4Signer.encode("/b/a b+c/é~", keepSlash: true) == "/b/a%20b%2Bc/%C3%A9~")
        #expect(SigV4Signer.encode("a/b", keepSlash: false) == "a%2Fb")
    }
}
