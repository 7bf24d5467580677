/// A `FileIO` that can list every file under a folder in one request, after a given name: object
/// storage (`S3FileIO`). An incremental fetch then reads a device's new log files from one
/// listing of its log prefix instead of probing folder by folder (SYNC-FORMAT "On S3").
public protocol KeyListingFileIO: FileIO {
    /// The paths, relative to `path`, of every file under it at any depth whose relative path is
    /// byte-greater than `startAfter` (empty: all), in byte order and each once, whatever order
    /// and repetitions the server lists them in.
    func listFiles(under path: String, startAfter: String) throws -> [String]
}

extension String {
    /// Byte (UTF-8) order, the order S3 lists keys in; Swift's `<` compares by Unicode rules.
    static func byteOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}
