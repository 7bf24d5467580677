/// The events in bytes read from an inotify descriptor (inotify(7)): each is a watch
/// descriptor, a mask and a name (empty for an event on the watched folder itself). Decoded from
/// the bytes (a 16-byte header, `struct inotify_event`, then the name padded with NULs), so the
/// watchers of the cloud folder (`FolderWatcher`) and of the notes folder (`FolderEvents`) read
/// them alike without this target importing Glibc.
public enum InotifyRecords {
    public struct Event: Sendable, Equatable {
        public var wd: Int32
        public var mask: UInt32
        public var name: String
    }

    /// The size of an event's header.
    public static let headerSize = 16

    /// The events in the first `count` bytes of `buffer`.
    public static func parse(_ buffer: [UInt8], count: Int) -> [Event] {
        var events: [Event] = []
        var offset = 0
        buffer.withUnsafeBytes { raw in
            while offset + headerSize <= min(count, raw.count) {
                let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let start = offset + headerSize
                let name = buffer[start..<min(count, start + length)].prefix { $0 != 0 }
                events.append(Event(wd: wd, mask: mask, name: String(decoding: name, as: UTF8.self)))
                offset = start + length
            }
        }
        return events
    }
}
