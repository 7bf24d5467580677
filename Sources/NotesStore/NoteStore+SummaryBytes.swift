import Foundation
import NotesCore

extension NoteStore {
    /// A hit's row (`hitColumns`) copied out of SQLite as it lies, made into a `NoteSummary`
    /// later, on the thread that makes a search's hits (D-237): making its strings (each one's
    /// UTF-8 checked and repaired) was a sixth of the thread that reads a search of every match,
    /// the thread both wait on.
    struct SummaryBytes: Sendable {
        /// The text columns (id, zone, title, preview, tags, syncState) one after another, each
        /// after its length in 4 bytes, as far as its first NUL, as GRDB reads a String.
        private var text: [UInt8] = []
        private var isFavorite: Bool
        private var createdAt: Int64
        private var modifiedAt: Int64
        private var deletedAt: Int64?
        private var bodyLength: Int

        /// The positions of the text columns in `summaryColumns` (and `hitColumns`), in the order
        /// they are kept.
        private static let textColumns = [0, 1, 2, previewColumn, 4, 9]
        /// The preview's column (NULL in `hitColumns`: cut from the body).
        private static let previewColumn = 3

        /// `row`: a row of `hitColumns`: `summaryColumns`' positions, the preview and the body's
        /// length taken from the body that follows them (`headLength` counts as SQLite's
        /// `substr` does; `SummaryBytesTests` holds the two equal).
        init(_ row: CurrentRow) {
            isFavorite = row.int64(5) != 0
            createdAt = row.int64(6)
            modifiedAt = row.int64(7)
            deletedAt = row.isNull(8) ? nil : row.int64(8)
            let body = row.bytes(NoteStore.summaryColumnCount)
            bodyLength = body.count
            text.reserveCapacity(320)
            for column in Self.textColumns {
                let bytes =
                    column == Self.previewColumn
                    ? UnsafeBufferPointer(
                        rebasing: body[..<NoteStore.headLength(body, characters: NoteSummary.previewLength)])
                    : row.bytes(column)
                let length =
                    bytes.baseAddress.flatMap { base in
                        memchr(base, 0, bytes.count).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
                    } ?? bytes.count
                withUnsafeBytes(of: UInt32(truncatingIfNeeded: length).littleEndian) { text.append(contentsOf: $0) }
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<length]))
            }
        }

        /// The summary `NoteStore.summary(from:)` makes of the same row; without `preview`, its
        /// preview is left empty (a caller that shows none need not have it made).
        func summary(preview: Bool = true) throws -> NoteSummary {
            var strings: [String] = []
            strings.reserveCapacity(Self.textColumns.count)
            text.withUnsafeBufferPointer { bytes in
                var position = 0
                while position + 4 <= bytes.count {
                    var length = 0
                    for index in 0..<4 { length |= Int(bytes[position + index]) << (8 * index) }
                    position += 4
                    let end = position + length
                    strings.append(
                        !preview && Self.textColumns[strings.count] == Self.previewColumn
                            ? "" : String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
                    )
                    position = end
                }
            }
            return NoteSummary(
                id: try noteID(strings[0]), zone: strings[1], title: strings[2], preview: strings[3],
                tags: decodeTags(strings[4]), isFavorite: isFavorite,
                createdAt: Date(millisecondsSince1970: createdAt), modifiedAt: Date(millisecondsSince1970: modifiedAt),
                deletedAt: deletedAt.map(Date.init(millisecondsSince1970:)),
                syncState: Note.SyncState(rawValue: strings[5]) ?? .pending, bodyLength: bodyLength)
        }
    }
}
