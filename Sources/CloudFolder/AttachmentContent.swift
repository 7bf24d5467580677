import NotesCore

/// Where a device keeps attachment content: its data directory, outside the cloud folder
/// (SYNC-FORMAT rule 15). The store implements it (`extension NoteStore: AttachmentContent {}`
/// where the two layers meet); a folder given one streams content between it and the chunks
/// under `private/assets/`, a piece at a time.
public protocol AttachmentContent: Sendable {
    /// The device id this data directory writes under (temp names of the chunks it writes).
    var deviceID: String { get }
    func hasAttachmentContent(sha256: String) -> Bool
    /// Streams the content of `sha256` in pieces of `chunkSize` (an empty file is one empty
    /// piece), throwing when it does not match its hash; false when it is not here.
    func readAttachmentContent(sha256: String, chunkSize: Int, _ body: (ArraySlice<UInt8>) throws -> Void) throws
        -> Bool
    /// Receives content: `fill` appends pieces; kept only when `size` and `sha256` match.
    func receiveAttachmentContent(
        sha256: String, size: Int64, _ fill: ((ArraySlice<UInt8>) throws -> Void) throws -> Void) throws
    // The memory of chunks below throws: a chunk is deleted from the cloud folder only by what
    // it says (`collectOwnChunks`), so a read that failed must stop a collection, never read as
    // "nothing is live" or "nothing is mine".

    /// The chunk names of content `sha256` in the folder identified by `folder`, if remembered.
    func cloudChunks(sha256: String, folder: String) throws -> [String]?
    func rememberCloudChunks(_ names: [String], sha256: String, folder: String) throws
    /// Chunks this device wrote itself in `folder` (its own: only it deletes them, rule 15).
    func rememberOwnChunks(_ names: [String], folder: String) throws
    func ownChunks(folder: String) throws -> Set<String>
    func forgetOwnChunks(_ names: [String], folder: String) throws
    /// When a collection first found each own chunk named by nothing (ms since 1970); a chunk
    /// named at the last look is absent.
    func ownChunksUnreferenced(folder: String) throws -> [String: Int64]
    /// Records `since` for the chunks in `unreferenced` that have no time yet, and clears the
    /// time of own chunks not in it (named again).
    func markOwnChunksUnreferenced(_ unreferenced: Set<String>, since: Int64, folder: String) throws
    /// The contents (SHA-256) the notes' current heads name: their chunks are live.
    func liveAttachmentContents() throws -> Set<String>
}
