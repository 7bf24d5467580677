import Foundation

/// A note as the local store and every layer above it see it.
public struct Note: Sendable, Equatable, Identifiable {
    /// The per-note sync mark the UI shows (synced ✓, pending ↻, conflict ⚠).
    public enum SyncState: String, Sendable, Equatable, CaseIterable, Codable {
        case synced, pending, conflict
    }

    public static let defaultZone = "notes"

    public var id: UUID
    /// The notebook, which is the record zone of SYNC-FORMAT.
    public var zone: String
    public var title: String
    public var body: String
    /// Sorted and without duplicates.
    public var tags: [String]
    public var isFavorite: Bool
    public var createdAt: Date
    public var modifiedAt: Date
    /// Set while the note is in the trash.
    public var deletedAt: Date?
    public var headRev: String?
    public var syncState: SyncState
    /// Front matter keys of an imported Markdown file that CloudNotes does not use (`aliases`,
    /// `source`, …), kept to be written back on export: the canonical JSON text of an object, nil
    /// when there are none (SYNC-FORMAT "Bodies", `frontMatter`).
    public var frontMatter: String?
    /// Files attached to the note, by name (SYNC-FORMAT rule 15); the store loads them for a
    /// single note (`NoteStore.note(_:)`), not for list rows.
    public var attachments: [Attachment]

    public init(
        id: UUID = UUID(), zone: String = Note.defaultZone, title: String, body: String,
        tags: [String] = [], isFavorite: Bool = false, createdAt: Date = Date(),
        modifiedAt: Date? = nil, deletedAt: Date? = nil, headRev: String? = nil,
        syncState: SyncState = .pending, frontMatter: String? = nil, attachments: [Attachment] = []
    ) {
        self.id = id
        self.zone = zone
        self.title = title
        self.body = body
        self.tags = Note.normalizedTags(tags)
        self.isFavorite = isFavorite
        self.createdAt = createdAt.roundedToMilliseconds
        self.modifiedAt = (modifiedAt ?? createdAt).roundedToMilliseconds
        self.deletedAt = deletedAt?.roundedToMilliseconds
        self.headRev = headRev
        self.syncState = syncState
        self.frontMatter = frontMatter
        self.attachments = Attachment.sorted(attachments)
    }

    /// The attachment named `name` (byte for byte), or nil.
    public func attachment(named name: String) -> Attachment? {
        attachments.first { $0.name.utf8.elementsEqual(name.utf8) }
    }

    /// The id as it is stored and printed: lowercase, hyphenated.
    public var idString: String { id.lowercasedString }

    public var isTrashed: Bool { deletedAt != nil }

    /// Tags trimmed, empty ones dropped, deduplicated and sorted by their UTF-8 bytes.
    public static func normalizedTags(_ tags: [String]) -> [String] {
        let cleaned = tags.map(trimmedTag).filter { !$0.isEmpty }
        guard cleaned.count > 1 else { return cleaned }
        return Array(Set(cleaned)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// `tag.trimmingCharacters(in: .whitespacesAndNewlines)`, without Foundation when both ends
    /// are ASCII and not white space (every note's tags are normalized on each write and read).
    static func trimmedTag(_ tag: String) -> String {
        if let first = tag.utf8.first, let last = tag.utf8.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 {
            return tag
        }
        return tag.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The title a note without one gets: its first non-empty body line, as most notes apps do.
    public static func derivedTitle(fromBody body: String, maxLength: Int = 80) -> String {
        let firstLine =
            body.split(whereSeparator: \.isNewline).lazy
            .map { Whitespace.trimmed(String($0)) }
            .first { !$0.isEmpty } ?? ""
        var title = firstLine
        while let first = title.first, "#*->".contains(first) || first == " " { title.removeFirst() }
        if title.isEmpty { title = firstLine }
        return title.count > maxLength ? String(title.prefix(maxLength)) : title
    }
}

extension Date {
    /// Milliseconds since 1970, the unit the store and the revision fields use. Clamped to
    /// `RevisionFields.timeRange` (a date far outside it, or not finite, would trap `Int64(_:)`).
    public var millisecondsSince1970: Int64 {
        let ms = (timeIntervalSince1970 * 1000).rounded()
        let range = RevisionFields.timeRange
        guard ms.isFinite else { return ms > 0 ? range.upperBound : range.lowerBound }
        return Int64(min(max(ms, Double(range.lowerBound)), Double(range.upperBound)))
    }

    public init(millisecondsSince1970 ms: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(ms) / 1000)
    }

    public var roundedToMilliseconds: Date { Date(millisecondsSince1970: millisecondsSince1970) }
}
