import NotesCore

/// The documents (searchRowids) a write transaction indexed, with their keys, until
/// `SearchIndex.flush` writes them as segments. One per store, used on its writer only.
///
/// Every `SearchIndex.maxPendingKeys` keys are sealed and sorted on another thread
/// (`SegmentSort`) while the transaction goes on writing notes.
// Unchecked: only the store's writer uses it, and GRDB runs one write at a time.
final class PendingIndex: @unchecked Sendable {
    private var rowids: [Int64] = []
    /// keys[i]: document i's distinct keys.
    private var keys: [[UInt32]] = []
    private(set) var keyCount = 0
    private var sealed: [BackgroundResult<SegmentSort.Output>] = []
    /// For texts indexed on the writer's thread.
    var scratch = KeySet()
    var folder = TextFolding.Folder()

    var isEmpty: Bool { rowids.isEmpty && sealed.isEmpty }
    /// The highest searchRowid of any note in this transaction, once read (Int64.min: none).
    var highestRowid: Int64?

    func add(rowid: Int64, keys documentKeys: [UInt32]) {
        keys.append(documentKeys)
        rowids.append(rowid)
        keyCount += documentKeys.count
    }

    /// This transaction's segment sorted ahead (an import's batch), used by `seal` when the
    /// transaction indexed exactly its documents, in its order.
    var ahead: SegmentSort.Ahead?

    /// Hands what was added so far to a sort of its own (on another thread when `async`).
    func seal(async: Bool) {
        guard !rowids.isEmpty else { return }
        let (documents, documentKeys, count) = (rowids, keys, keyCount)
        if sealed.isEmpty, let segment = ahead?.segment(rowids: documents, keys: documentKeys) {
            sealed.append(BackgroundResult(async: false) { segment })
            rowids = []
            keys = []
            keyCount = 0
            return
        }
        sealed.append(
            BackgroundResult(async: async) { SegmentSort.sort(rowids: documents, keys: documentKeys, keyCount: count) })
        rowids = []
        keys = []
        keyCount = 0
    }

    /// The sealed segments, in the order they were sealed; the caller writes them.
    func takeSealed() -> [BackgroundResult<SegmentSort.Output>] {
        defer { sealed = [] }
        return sealed
    }

    /// Forgets everything (the transaction ended, committed or not). A sort still running
    /// finishes on its own thread and is dropped.
    func reset() {
        rowids = []
        keys = []
        keyCount = 0
        sealed = []
        highestRowid = nil
        ahead = nil
    }
}
