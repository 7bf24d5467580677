import Foundation
import NotesStore

/// A failure of the runtime's own, in words for the status bar.
struct RuntimeError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }

    /// An error as the status bar says it: the store's and the editor's messages are written
    /// for users already.
    static func describe(_ error: Error) -> String {
        switch error {
        case let error as StoreError: error.message
        case let error as ExternalEdit.Failure: error.message
        case let error as RuntimeError: error.description
        default: (error as NSError).localizedDescription
        }
    }
}
