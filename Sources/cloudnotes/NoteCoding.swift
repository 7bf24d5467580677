import Foundation
import NotesCore

/// Every field of a note as bytes, and back: how an import's first pass keeps the notes it read
/// in its scratch file (`ImportPlan`) for the second. Strings are their UTF-8 after a 32-bit
/// length, dates the bits of their `Double`, so a note reads back exactly as it was.
enum NoteCoding {
    private static let isFavorite: UInt8 = 1
    private static let hasDeletedAt: UInt8 = 2
    private static let hasFrontMatter: UInt8 = 4
    private static let hasHeadRev: UInt8 = 8

    static func encode(_ note: Note, into out: inout [UInt8]) {
        withUnsafeBytes(of: note.id.uuid) { out += $0 }
        var flags: UInt8 = 0
        if note.isFavorite { flags |= isFavorite }
        if note.deletedAt != nil { flags |= hasDeletedAt }
        if note.frontMatter != nil { flags |= hasFrontMatter }
        if note.headRev != nil { flags |= hasHeadRev }
        out.append(flags)
        date(note.createdAt, &out)
        date(note.modifiedAt, &out)
        if let deletedAt = note.deletedAt { date(deletedAt, &out) }
        for text in [note.syncState.rawValue, note.zone, note.title, note.body] { string(text, &out) }
        if let frontMatter = note.frontMatter { string(frontMatter, &out) }
        if let headRev = note.headRev { string(headRev, &out) }
        number(UInt64(note.tags.count), &out)
        for tag in note.tags { string(tag, &out) }
        number(UInt64(note.attachments.count), &out)
        for attachment in note.attachments {
            string(attachment.name, &out)
            number(UInt64(bitPattern: attachment.size), &out)
            string(attachment.sha256, &out)
        }
    }

    /// The note `encode` wrote into `bytes`; nil when they are not one.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Note? {
        var reader = Reader(bytes: bytes)
        guard let idBytes = reader.take(16) else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: idBytes) }
        guard let flags = reader.take(1)?.first, let createdAt = reader.date(), let modifiedAt = reader.date()
        else { return nil }
        var deletedAt: Date?
        if flags & hasDeletedAt != 0 {
            guard let date = reader.date() else { return nil }
            deletedAt = date
        }
        guard let state = reader.string(), let syncState = Note.SyncState(rawValue: state), let zone = reader.string(),
            let title = reader.string(), let body = reader.string()
        else { return nil }
        var note = Note(id: UUID(uuid: uuid), zone: zone, title: title, body: body)
        note.isFavorite = flags & isFavorite != 0
        note.createdAt = createdAt
        note.modifiedAt = modifiedAt
        note.deletedAt = deletedAt
        note.syncState = syncState
        if flags & hasFrontMatter != 0 {
            guard let frontMatter = reader.string() else { return nil }
            note.frontMatter = frontMatter
        }
        if flags & hasHeadRev != 0 {
            guard let headRev = reader.string() else { return nil }
            note.headRev = headRev
        }
        guard let tagCount = reader.number() else { return nil }
        var tags: [String] = []
        for _ in 0..<tagCount {
            guard let tag = reader.string() else { return nil }
            tags.append(tag)
        }
        note.tags = tags
        guard let attachmentCount = reader.number() else { return nil }
        var attachments: [Attachment] = []
        for _ in 0..<attachmentCount {
            guard let name = reader.string(), let size = reader.number(), let sha256 = reader.string() else {
                return nil
            }
            attachments.append(Attachment(name: name, size: Int64(bitPattern: size), sha256: sha256))
        }
        note.attachments = attachments
        return reader.isAtEnd ? note : nil
    }

    private static func date(_ date: Date, _ out: inout [UInt8]) {
        number(date.timeIntervalSinceReferenceDate.bitPattern, &out)
    }

    private static func string(_ text: String, _ out: inout [UInt8]) {
        number(UInt64(text.utf8.count), &out)
        out += text.utf8
    }

    private static func number(_ value: UInt64, _ out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }

    /// Reads what `encode` wrote, front to back; nil past the end.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, count <= bytes.count - position else { return nil }
            defer { position += count }
            return UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
        }

        mutating func number() -> UInt64? {
            guard let raw = take(8) else { return nil }
            var value: UInt64 = 0
            withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: raw) }
            return UInt64(littleEndian: value)
        }

        mutating func date() -> Date? {
            number().map { Date(timeIntervalSinceReferenceDate: Double(bitPattern: $0)) }
        }

        mutating func string() -> String? {
            guard let length = number(), length <= UInt64(bytes.count), let raw = take(Int(length)) else { return nil }
            return String(decoding: raw, as: UTF8.self)
        }
    }
}
