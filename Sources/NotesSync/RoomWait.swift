import CloudFolder
import Foundation

/// A note that did not fit in a full cloud folder (issue 21 item 13), as the engine remembers
/// it for the rest of the process: which revision did not fit, why, and when to try again, so an
/// automatic sync does not upload the same large content at every pass while the folder stays full.
struct RoomWait: Sendable, Equatable {
    /// The revision that did not fit (the note's first unpublished one).
    var revisionID: String
    var error: CloudError
    /// How many times in a row it did not fit.
    var attempts: Int
    /// Not tried again before this (ms since 1970), unless the note changes.
    var notBefore: Int64
}
