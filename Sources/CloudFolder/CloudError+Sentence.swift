import Foundation
import NotesCore

/// Errors of any kind as the one clear sentence a user reads (ARCHITECTURE §4), never a Swift
/// type's debug description (issue 21: `OwnLogTaken(…)` reached a status message).
extension CloudError {
    /// A sentence for `error`: a `CloudError`'s message, the reason of this package's own
    /// errors, a `LocalizedError`'s description or an errno's text; "an unexpected error" for
    /// anything else (its details are for logs, not for people).
    public static func sentence(for error: any Error) -> String {
        switch error {
        case let cloud as CloudError: return cloud.message
        case let refused as ChangeRecord.OutOfRange: return refused.description
        case let unavailable as AssetUnavailable: return unavailable.description
        case let json as JSONValueError: return json.description
        case let posix as POSIXError: return String(cString: strerror(posix.code.rawValue))
        case let localized as any LocalizedError:
            if let description = localized.errorDescription { return description }
            return "an unexpected error"
        default: return "an unexpected error"
        }
    }

    /// `error` as a `CloudError`: itself, or `code` with its sentence.
    public static func wrapping(_ error: any Error, as code: Code = .internalError) -> CloudError {
        error as? CloudError ?? CloudError(code, sentence(for: error))
    }
}
