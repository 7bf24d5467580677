import Glibc
import Testing

@testable import CloudFolder

@Suite struct CloudErrorTests {
    /// The errno table of CloudError, as the sync engine relies on it.
    static let table: [(Int32, CloudError.Code)] = [
        (ENOENT, .unknownItem), (EACCES, .permissionFailure), (EPERM, .permissionFailure),
        (EROFS, .permissionFailure), (ENOSPC, .quotaExceeded), (EDQUOT, .quotaExceeded), (EFBIG, .limitExceeded),
        (EIO, .networkFailure), (ESTALE, .networkFailure), (ETIMEDOUT, .networkFailure),
        (ENOTCONN, .networkUnavailable), (ENODEV, .networkUnavailable), (ENXIO, .networkUnavailable),
        (ENOTDIR, .invalidArguments), (EISDIR, .invalidArguments), (ELOOP, .invalidArguments),
        (ENAMETOOLONG, .limitExceeded), (EMFILE, .serviceUnavailable), (ENFILE, .serviceUnavailable),
        (EBUSY, .zoneBusy), (EAGAIN, .zoneBusy), (EEXIST, .serverRecordChanged), (EINVAL, .internalError),
    ]

    @Test(arguments: table.map { $0.0 })
    func everyErrnoOfTheTableMapsToItsCode(number: Int32) {
        let expected = Self.table.first { $0.0 == number }!.1
        let error = CloudError(errno: number, operation: "write", path: "/cloud/x.json")
        #expect(error.code == expected)
        #expect(error.errno == number)
        #expect(error.message.hasPrefix("write failed: "))
        #expect(error.description.contains("/cloud/x.json"))
    }

    @Test func messagesSayWhatHappenedInWords() {
        #expect(
            CloudError(errno: ENOSPC, operation: "write", path: nil).message
                == "write failed: no space left on the device that holds the cloud folder")
        #expect(CloudError(errno: EROFS, operation: "create", path: nil).message.contains("read-only"))
        #expect(CloudError(errno: ELOOP, operation: "open", path: nil).message.contains("never followed"))
    }
}
