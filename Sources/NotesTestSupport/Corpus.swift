import Foundation

/// The project's seeded corpus of notes, for tests and benchmarks: the same notes for a seed,
/// every run and on every machine.
///
/// Each note has an id (a version-4 UUID drawn from the seed), a title of 2-7 words, a body of
/// 1-40 lines of English-like words with accented Latin, CJK, Hangul and emoji sprinkled in, some
/// lines Markdown list items or headings, some blank; 0-3 tags (two of them not ASCII); about
/// 10% favourites; `createdAt <= modifiedAt` (ISO 8601 UTC, seconds) within 2023-2025. The mix
/// of words, lines and tags is the one the benchmarks have always measured.
public struct Corpus: Sequence, IteratorProtocol, Sendable {
    public let count: Int
    private var random: SeededRandom
    private var produced = 0

    public init(count: Int, seed: UInt64) {
        self.count = count
        random = SeededRandom(seed: seed)
    }

    public mutating func next() -> CorpusNote? {
        guard produced < count else { return nil }
        produced += 1
        return note(number: produced - 1)
    }

    /// Writes the notes as JSON Lines (one object per line, keys sorted, as `import` reads them);
    /// returns the bytes written.
    @discardableResult
    public static func writeJSONLines(count: Int, seed: UInt64, to file: URL) throws -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try write(to: file, Corpus(count: count, seed: seed)) { note in
            var line = try encoder.encode(note)
            line.append(UInt8(ascii: "\n"))
            return line
        }
    }

    /// Writes one Markdown file per note into `directory` (`<id>.md`, front matter then the body).
    public static func writeMarkdown(count: Int, seed: UInt64, into directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for note in Corpus(count: count, seed: seed) {
            try Data(note.markdown.utf8).write(to: directory.appendingPathComponent(note.id + ".md"))
        }
    }

    private static func write(
        to file: URL, _ notes: Corpus, _ encode: (CorpusNote) throws -> Data
    ) throws -> Int {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var buffer = Data()
        var total = 0
        for note in notes {
            buffer.append(try encode(note))
            if buffer.count > 1 << 20 {
                try handle.write(contentsOf: buffer)
                total += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: buffer)
        return total + buffer.count
    }

    // MARK: - Drawing one note

    static let common = """
        the of and to in is for on that with as it at by this from be are was or an have not but which \
        one all can more will up out about if has its into than then them these so some her would make \
        like him time two see way could people my first water been call who oil now find long down day \
        did get come made may part
        """.split(separator: " ").map(String.init)
    static let topics = """
        meeting roadmap budget release sprint design review kernel backup invoice recipe garden travel \
        flight hotel doctor dentist birthday groceries library account password router server database \
        migration deploy incident postmortem interview hiring onboarding quarterly planning research paper \
        draft outline chapter lecture exam homework project prototype benchmark latency throughput cache \
        index search terminal editor keyboard monitor laptop battery charger bicycle marathon training
        """.split(separator: " ").map(String.init)
    static let accented = """
        café naïve résumé jalapeño façade coöperate Zürich São Paulo Ångström crème brûlée piñata déjà vu \
        Mädchen Straße Kraków Dvořák
        """.split(separator: " ").map(String.init)
    static let cjk = ["日本語", "会議", "東京", "中文", "笔记", "搜索", "한국어", "회의", "メモ", "同期"]
    static let emoji = ["🎉", "✅", "🚀", "📝", "⚠️", "👍🏽", "🇯🇵", "❤️", "🔥", "🧪"]
    static let tags = ["work", "home", "ideas", "todo", "reading", "travel", "health", "finance", "日本", "café"]
    static let linePrefixes = ["", "", "", "- ", "* ", "1. ", "## "]
    /// 2023-01-01T00:00:00Z.
    static let start: TimeInterval = 1_672_531_200

    private mutating func unit() -> Double { Double(random.next() >> 11) / Double(UInt64(1) << 53) }

    private mutating func integer(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + random.below(range.count)
    }

    private mutating func pick(_ words: [String]) -> String { words[random.below(words.count)] }

    private mutating func word() -> String {
        let r = unit()
        if r < 0.55 { return pick(Self.common) }
        if r < 0.88 {
            let topic = pick(Self.topics)
            return unit() < 0.15 ? topic.prefix(1).uppercased() + topic.dropFirst() : topic
        }
        if r < 0.94 { return pick(Self.accented) }
        if r < 0.975 { return pick(Self.cjk) }
        return pick(Self.emoji)
    }

    private mutating func words(_ range: ClosedRange<Int>) -> String {
        (0..<integer(range)).map { _ in word() }.joined(separator: " ")
    }

    /// A version-4 UUID (lowercase) from 128 bits of the seeded generator.
    private mutating func uuid() -> String {
        var bytes = (0..<2).flatMap { _ in withUnsafeBytes(of: random.next().bigEndian, Array.init) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return uuid.uuidString.lowercased()
    }

    private mutating func note(number: Int) -> CorpusNote {
        let id = uuid()
        let drawn = words(2...7)
        let title = drawn.isEmpty ? "Note \(number)" : drawn.prefix(1).uppercased() + drawn.dropFirst()
        var lines: [String] = []
        for _ in 0..<integer(1...40) {
            if unit() < 0.12 {
                lines.append("")
                continue
            }
            let prefix = pick(Self.linePrefixes)
            lines.append(prefix + words(3...14))
        }
        let created = Self.start + TimeInterval(integer(0...(3 * 365 * 86400)))
        let modified = created + TimeInterval(integer(0...(90 * 86400)))
        var pool = Self.tags
        let tagCount = integer(0...3)
        var chosen: [String] = []
        for index in 0..<tagCount {
            pool.swapAt(index, index + random.below(pool.count - index))
            chosen.append(pool[index])
        }
        return CorpusNote(
            id: id, title: title, body: lines.joined(separator: "\n"), tags: Set(chosen).sorted(),
            isFavorite: unit() < 0.10, createdAt: Self.iso(created), modifiedAt: Self.iso(modified))
    }

    /// `seconds` since 1970 as ISO 8601 UTC to the second (`2024-02-03T04:05:06Z`).
    static func iso(_ seconds: TimeInterval) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}

/// One note of the `Corpus`, with the fields `import` reads from JSON Lines.
public struct CorpusNote: Codable, Equatable, Sendable {
    public var id: String
    public var title: String
    public var body: String
    public var tags: [String]
    public var isFavorite: Bool
    public var createdAt: String
    public var modifiedAt: String

    /// The note as a Markdown file: front matter (id, title, tags, favorite, created, modified),
    /// then the title as a heading and the body.
    public var markdown: String {
        let front = [
            "---", "id: \(id)", "title: \(Self.json(title))", "tags: [\(tags.map(Self.json).joined(separator: ", "))]",
            "favorite: \(isFavorite)", "created: \(createdAt)", "modified: \(modifiedAt)", "---", "",
        ]
        return front.joined(separator: "\n") + "# " + title + "\n\n" + body + "\n"
    }

    /// `text` as a JSON string (quotes and backslashes escaped; other characters as they are).
    static func json(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Encoding a String cannot fail; the fallback is never used.
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\(text)\""
    }
}
