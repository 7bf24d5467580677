import Foundation
import GRDB
import NotesCore

/// A note's attachments (SYNC-FORMAT rule 15): the list is part of the note's fields (and so of
/// every revision); the `attachment` table (migration `attachments-1`) mirrors the head's list;
/// the content is files in the data directory (`AttachmentFiles`).
extension NoteStore {
    var attachmentFiles: AttachmentFiles { AttachmentFiles(root: directory.appendingPathComponent("attachments")) }

    /// Where the content of `sha256` is kept (present or not).
    public func attachmentContentPath(_ sha256: String) -> String { attachmentFiles.path(sha256) }

    /// Copies a file's content into the data directory (streamed, deduplicated by its SHA-256)
    /// and returns the attachment it makes under `name`. Nothing is attached yet. Without
    /// `followingLinks` a symbolic link is refused (an import never reads out of its folder).
    public func addAttachmentContent(
        fromFile path: String, name: String, maxBytes: Int64, followingLinks: Bool = true
    ) throws -> Attachment {
        if let problem = Attachment.nameProblem(name) { throw StoreError(.invalidInput, problem) }
        let limit = min(maxBytes, Attachment.maxSize)
        let (size, sha256) = try attachmentFiles.add(fileAt: path, maxBytes: limit, followingLinks: followingLinks)
        return Attachment(name: name, size: size, sha256: sha256)
    }

    /// Attaches (or, with `replacing`, replaces) attachments whose content is already in the
    /// data directory. A name the note already has is refused unless `replacing`.
    @discardableResult
    public func attach(_ id: UUID, _ attachments: [Attachment], replacing: Bool = false) throws -> Note {
        for attachment in attachments {
            if let problem = Attachment.nameProblem(attachment.name) { throw StoreError(.invalidInput, problem) }
            guard hasAttachmentContent(sha256: attachment.sha256) else {
                throw StoreError(.notFound, "the content of \(attachment.name) is not in the data directory")
            }
        }
        let names = attachments.map { Array($0.name.utf8) }
        guard Set(names).count == names.count else {
            throw StoreError(.invalidInput, "two attachments are named the same")
        }
        return try update(id) { note in
            for attachment in attachments {
                if note.attachment(named: attachment.name) != nil {
                    guard replacing else {
                        throw StoreError(
                            .invalidInput,
                            "note already has an attachment named \(TerminalSafeText.sanitize(attachment.name)); "
                                + "use --force to replace it")
                    }
                    note.attachments.removeAll { $0.name.utf8.elementsEqual(attachment.name.utf8) }
                }
                note.attachments.append(attachment)
            }
            note.attachments = Attachment.sorted(note.attachments)
        }
    }

    /// Removes the attachment named `name`; its content stays in the data directory (history
    /// still names it).
    @discardableResult
    public func detach(_ id: UUID, name: String) throws -> Note {
        try update(id) { note in
            guard note.attachment(named: name) != nil else {
                throw StoreError(
                    .notFound, "note has no attachment named \(TerminalSafeText.sanitize(name))")
            }
            note.attachments.removeAll { $0.name.utf8.elementsEqual(name.utf8) }
        }
    }

    // MARK: Content, as the cloud folder reads and writes it (`AttachmentContent`)

    public func hasAttachmentContent(sha256: String) -> Bool { attachmentFiles.contains(sha256) }

    /// Streams the content of `sha256` in pieces of `chunkSize`; false when it is not here.
    public func readAttachmentContent(
        sha256: String, chunkSize: Int, _ body: (ArraySlice<UInt8>) throws -> Void
    ) throws -> Bool {
        try attachmentFiles.read(sha256, chunkSize: chunkSize, body)
    }

    /// Receives content piece by piece; kept only when its size and SHA-256 match.
    public func receiveAttachmentContent(
        sha256: String, size: Int64, _ fill: ((ArraySlice<UInt8>) throws -> Void) throws -> Void
    ) throws {
        try attachmentFiles.receive(sha256, size: size, fill)
    }

    /// The chunk names of content `sha256` in the cloud folder `folder`, when remembered.
    public func cloudChunks(sha256: String, folder: String) throws -> [String]? {
        let text = try read { db in
            try String.fetchOne(
                db, sql: "SELECT chunks FROM attachment_chunks WHERE sha256 = ? AND folder = ?",
                arguments: [sha256, folder])
        }
        // A damaged row is no memory: the chunks are looked for (stat) or written again.
        guard let text, let json = try? JSONValue(parsing: Data(text.utf8)), let items = json.arrayValue else {
            return nil
        }
        let names = items.compactMap(\.stringValue)
        return names.count == items.count ? names : nil
    }

    /// Remembers where content sits in a cloud folder (written, or read and checked).
    public func rememberCloudChunks(_ names: [String], sha256: String, folder: String) throws {
        let text = JSONValue.array(names.map(JSONValue.string)).canonicalString
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO attachment_chunks(sha256, folder, chunks) VALUES (?, ?, ?)
                    ON CONFLICT(sha256, folder) DO UPDATE SET chunks = excluded.chunks
                    """, arguments: [sha256, folder, text])
        }
    }

    public func rememberOwnChunks(_ names: [String], folder: String) throws {
        guard !names.isEmpty else { return }
        try write { db in
            for name in names {
                try db.run("INSERT OR IGNORE INTO own_chunk(folder, name) VALUES (?, ?)", [folder, name])
            }
        }
    }

    public func ownChunks(folder: String) throws -> Set<String> {
        let names = try read { db in
            try String.fetchAll(db, sql: "SELECT name FROM own_chunk WHERE folder = ?", arguments: [folder])
        }
        return Set(names)
    }

    public func forgetOwnChunks(_ names: [String], folder: String) throws {
        guard !names.isEmpty else { return }
        try write { db in
            for name in names { try db.run("DELETE FROM own_chunk WHERE folder = ? AND name = ?", [folder, name]) }
        }
    }

    public func ownChunksUnreferenced(folder: String) throws -> [String: Int64] {
        let rows = try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT name, unreferencedSince FROM own_chunk WHERE folder = ? AND unreferencedSince IS NOT NULL",
                arguments: [folder])
        }
        var since: [String: Int64] = [:]
        for row in rows { since[row["name"]] = row["unreferencedSince"] }
        return since
    }

    public func markOwnChunksUnreferenced(_ unreferenced: Set<String>, since: Int64, folder: String) throws {
        try write { db in
            let marked = try String.fetchAll(
                db, sql: "SELECT name FROM own_chunk WHERE folder = ? AND unreferencedSince IS NOT NULL",
                arguments: [folder])
            for name in marked where !unreferenced.contains(name) {
                try db.run(
                    "UPDATE own_chunk SET unreferencedSince = NULL WHERE folder = ? AND name = ?", [folder, name])
            }
            for name in unreferenced {
                try db.run(
                    "UPDATE own_chunk SET unreferencedSince = ? WHERE folder = ? AND name = ? AND unreferencedSince IS NULL",
                    [since, folder, name])
            }
        }
    }

    public func liveAttachmentContents() throws -> Set<String> {
        let contents = try read { db in try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM attachment") }
        return Set(contents)
    }

    // MARK: The attachment table

    static func fetchAttachments(_ noteID: String, _ db: Database) throws -> [Attachment] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT name, size, sha256 FROM attachment WHERE noteID = ?"),
            arguments: [noteID]
        ).map { Attachment(name: $0["name"], size: $0["size"], sha256: $0["sha256"]) }
    }

    /// Mirrors the note's attachments into the table (in the transaction writing the note row).
    static func writeAttachments(_ note: Note, isNew: Bool, _ db: Database) throws {
        if !isNew { try db.run("DELETE FROM attachment WHERE noteID = ?", [note.idString]) }
        for attachment in note.attachments {
            try db.run(
                "INSERT INTO attachment(noteID, name, size, sha256) VALUES (?, ?, ?, ?)",
                [note.idString, attachment.name, attachment.size, attachment.sha256])
        }
    }
}
