import Foundation
import Testing

@testable import CloudFolder

/// No error a user sees is a Swift debug description (issue 21 item 6 and "Honest status").
@Suite("Errors as sentences")
struct ErrorSentenceTests {
    /// An error type of some library that describes itself only as a Swift value.
    struct OpaqueLibraryError: Error {
        var internalCode = 42
        var detail = "xyzzy"
    }

    static func looksLikeADebugDescription(_ message: String) -> Bool {
        ["OpaqueLibraryError", "internalCode", "xyzzy", "HTTPClientError", "Error("].contains {
            message.contains($0)
        }
    }

    @Test("an S3 request failing with an error of unknown type says so in a sentence, without the type's dump")
    func s3ClassifyFallback() {
        let error = S3HTTP.classify(OpaqueLibraryError(), place: "http://127.0.0.1:1", key: "container.json")
        #expect(error.code == .networkFailure)
        #expect(error.message.hasPrefix("the request to http://127.0.0.1:1 failed"), "\(error.message)")
        #expect(!Self.looksLikeADebugDescription(error.message), "\(error.message)")
    }

    @Test("errors of any type become sentences; the package's own keep their words")
    func sentences() {
        #expect(CloudError.sentence(for: OpaqueLibraryError()) == "an unexpected error")
        #expect(CloudError.sentence(for: POSIXError(.ENOSPC)) == "No space left on device")
        let unavailable = AssetUnavailable(chunk: String(repeating: "a", count: 64), reason: "has not arrived yet")
        #expect(CloudError.sentence(for: unavailable) == unavailable.description)
        let wrapped = CloudError.wrapping(OpaqueLibraryError())
        #expect(wrapped.code == .internalError)
        #expect(!Self.looksLikeADebugDescription(wrapped.message))
    }
}
