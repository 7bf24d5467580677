import Foundation

/// S3's multipart upload (CreateMultipartUpload, UploadPart, CompleteMultipartUpload; an
/// AbortMultipartUpload when a step fails): an object uploaded a part at a time, so content of
/// any size goes up with one part in memory.
extension S3Client {
    /// The smallest part S3 takes, but for the last.
    public static let minimumPartBytes = 5 << 20

    /// Uploads the parts `parts` hands to its callback, in order (each but the last at least
    /// `minimumPartBytes`), as the object `key` with `headers` (its content type); returns the
    /// object's ETag, quotes dropped. A failed step aborts the upload, so no part is left stored.
    public func uploadInParts(
        key: String, headers: [(String, String)] = [], _ parts: ((ArraySlice<UInt8>) throws -> Void) throws -> Void
    ) throws -> String {
        let bucket = endpoint.bucket
        let created = try send("POST", key: key, query: [("uploads", "")], headers: headers)
        guard created.status == 200,
            let upload = S3XML.value("InitiateMultipartUploadResult/UploadId", in: created.body), !upload.isEmpty
        else { throw created.cloudError(operation: "start an upload of", key: key, bucket: bucket) }
        do {
            var etags: [String] = []
            try parts { part in
                let number = etags.count + 1
                let answer = try send(
                    "PUT", key: key, query: [("partNumber", String(number)), ("uploadId", upload)], body: Array(part))
                guard answer.status == 200, let etag = answer.headers["etag"] else {
                    throw answer.cloudError(operation: "upload part \(number) of", key: key, bucket: bucket)
                }
                etags.append(etag)
            }
            let list = etags.enumerated().map {
                "<Part><PartNumber>\($0.offset + 1)</PartNumber><ETag>\($0.element)</ETag></Part>"
            }
            let done = try send(
                "POST", key: key, query: [("uploadId", upload)],
                body: Array("<CompleteMultipartUpload>\(list.joined())</CompleteMultipartUpload>".utf8))
            // S3 may answer 200 with an error in the body, once the parts are being joined. The
            // root is `CompleteMultipartUploadResult` (AWS, SeaweedFS) or, in moto, the older
            // `CompleteMultipartUploadResponse`.
            guard done.status == 200,
                let etag = S3XML.value("CompleteMultipartUploadResult/ETag", in: done.body)
                    ?? S3XML.value("CompleteMultipartUploadResponse/ETag", in: done.body)
            else { throw done.cloudError(operation: "finish the upload of", key: key, bucket: bucket) }
            return S3FileIO.unquoted(etag)
        } catch {
            // `try?`: the abort only tidies up (a bucket's lifecycle rule removes what it leaves);
            // the error that stopped the upload is the one to report.
            _ = try? send("DELETE", key: key, query: [("uploadId", upload)])
            throw error
        }
    }
}
