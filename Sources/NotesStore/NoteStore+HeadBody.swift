import Foundation
import GRDB
import NotesCore

/// A note's body stored once (issue 27; ARCHITECTURE §2, DECISIONS D-208): the revision a
/// note row names as its head keeps its canonical fields text with the body string's contents
/// cut out (`"body":""`, so `json_extract(fields, …)` still reads every other field) and
/// `bodyAt`, the byte offset where they go; the note row holds the body. Every other revision,
/// and every row written before this (`bodyAt` NULL), holds its fields whole.
///
/// The invariant: a revision with `bodyAt` set is the `headRev` of the note row of its
/// `recordID`, and that row's body, escaped as the canonical encoder escapes it, is exactly the
/// bytes cut out. So every write that changes a note row's body or head, or deletes the row,
/// first writes the head's fields whole again (`restoreHeadBody`): `upsert` and the two
/// deletions do. Reading splices the body back (`revision(from:_:)`), byte for byte the fields
/// that were stored, which the revision's id hashes. A row that breaks this is damage
/// (`HeadBodyDamage`), as a revision whose JSON does not parse is: an internal error, never
/// another text.
enum HeadBody {
    /// The body as the canonical encoder writes it between its quotes.
    static func escaped(_ body: String) -> ArraySlice<UInt8> {
        let quoted = JSONValue.string(body).canonicalBytes
        return quoted[1..<(quoted.count - 1)]
    }

    private static let key = Array(#""body":""#.utf8)

    /// Canonical fields with `body`'s escaped contents cut out, and where they were; nil when
    /// the fields do not hold that body (then they are stored whole): for fields read back.
    static func elide(_ fields: [UInt8], body: String) -> (text: String, offset: Int)? {
        let contents = Array(escaped(body))
        let found = fields.withUnsafeBufferPointer { whole -> Range<Int>? in
            // `body` is the first key, or the second after `attachments` (present only with any).
            guard let offset = ByteSearch.firstIndex(of: key, in: whole).map({ $0 + key.count }) else { return nil }
            let end = offset + contents.count
            guard end < whole.count, whole[end] == UInt8(ascii: "\""),
                contents.withUnsafeBufferPointer({ cut in
                    guard let from = whole.baseAddress, let to = cut.baseAddress else { return cut.isEmpty }
                    return memcmp(from + offset, to, cut.count) == 0
                })
            else { return nil }
            return offset..<end
        }
        return found.map { elide(fields, bodyContents: $0) }
    }

    /// Canonical fields with the body's contents, at `bodyContents` (where
    /// `RevisionFields.canonicalForm` wrote them), cut out, and where they were. Copies from
    /// buffers, not slices: it runs once per note of an import, in debug builds too.
    static func elide(_ fields: [UInt8], bodyContents: Range<Int>) -> (text: String, offset: Int) {
        fields.withUnsafeBufferPointer { whole in
            var text = [UInt8]()
            text.reserveCapacity(whole.count - bodyContents.count)
            text.append(contentsOf: UnsafeBufferPointer(rebasing: whole[..<bodyContents.lowerBound]))
            text.append(contentsOf: UnsafeBufferPointer(rebasing: whole[bodyContents.upperBound...]))
            return (String(decoding: text, as: UTF8.self), bodyContents.lowerBound)
        }
    }

    /// The fields text `elide` cut `body` out of, whole again.
    static func splice(_ elided: String, at offset: Int, body: String) throws -> String {
        try checkElided(elided, at: offset)
        var bytes = Array(elided.utf8)
        bytes.insert(contentsOf: escaped(body), at: offset)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Throws unless `elided` has the body's key, then its closing quote, at `offset`.
    static func checkElided(_ elided: String, at offset: Int) throws {
        let bytes = elided.utf8
        guard offset >= key.count, offset < bytes.count,
            bytes.dropFirst(offset - key.count).prefix(key.count).elementsEqual(key),
            bytes[bytes.index(bytes.startIndex, offsetBy: offset)] == UInt8(ascii: "\"")
        else {
            throw HeadBodyDamage("a revision's fields have no body at byte \(offset), where the store says")
        }
    }
}

extension NoteStore {
    /// A revision row (of `revision` or `sync_buffer`) as a `Revision`, its body spliced back
    /// from the note row when it is the note's elided head: the one way fields are read.
    static func revision(from row: Row, _ db: Database) throws -> Revision {
        let parents =
            try JSONValue(parsing: Data((row["parents"] as String).utf8)).arrayValue?.compactMap(\.stringValue) ?? []
        let fields = try revisionFields(of: row, db)
        return Revision(
            storedID: row["id"], recordID: try recordID(of: row), parents: parents, fields: fields,
            hlc: HLC(packed: row["hlc"]), device: row["device"])
    }

    /// A revision row's fields (nil: a tombstone). An elided head's are its elided text, whose
    /// body is `""`, read with the note's body set in: the same fields as reading the text
    /// `HeadBody.splice` makes whole, without escaping the body into it and unescaping it again.
    static func revisionFields(of row: Row, _ db: Database) throws -> RevisionFields? {
        guard let text = row["fields"] as String? else { return nil }
        guard let offset = row["bodyAt"] as Int? else {
            return try RevisionFields(json: JSONValue(parsing: Data(text.utf8)))
        }
        try HeadBody.checkElided(text, at: offset)
        guard case .object(var members) = try JSONValue(parsing: Data(text.utf8)), members["body"] == .string("") else {
            throw HeadBodyDamage("a revision's fields have no empty body where the store cut it out")
        }
        members["body"] = .string(try headBody(of: row, db))
        return try RevisionFields(json: .object(members))
    }

    /// The body of the note whose elided head `row` is.
    static func headBody(of row: Row, _ db: Database) throws -> String {
        let id: String = row["id"]
        guard
            let body = try String.fetchOne(
                db.cachedStatement(sql: "SELECT body FROM note WHERE id = ? AND headRev = ?"),
                arguments: [row["recordID"] as String, id])
        else {
            throw HeadBodyDamage("revision \(id) has lost its body: its note no longer names it as its head")
        }
        return body
    }

    /// Writes the elided head revision of note `id` whole again before its row changes, unless
    /// `next` (the row about to be written) keeps both that head and its body; returns whether
    /// the head stays elided.
    @discardableResult
    static func restoreHeadBody(_ id: String, keeping next: Note? = nil, _ db: Database) throws -> Bool {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT r.id, r.fields, r.bodyAt, n.body FROM note n
                        JOIN revision r ON r.id = n.headRev AND r.recordID = n.id
                        WHERE n.id = ? AND r.bodyAt IS NOT NULL
                        """), arguments: [id])
        else { return false }
        let head: String = row["id"]
        let body: String = row["body"]
        if let next, next.headRev == head, next.body.utf8.elementsEqual(body.utf8) { return true }
        let whole = try HeadBody.splice(row["fields"], at: row["bodyAt"], body: body)
        try db.run("UPDATE revision SET fields = ?, bodyAt = NULL WHERE id = ?", [whole, head])
        return false
    }

    /// Cuts the body out of `note`'s head revision when that is stored whole and holds exactly
    /// the note's body (called once the note row holds it).
    static func elideHeadBody(_ note: Note, _ db: Database) throws {
        guard let head = note.headRev,
            let fields = try String.fetchOne(
                db.cachedStatement(
                    sql: "SELECT fields FROM revision WHERE id = ? AND recordID = ? AND bodyAt IS NULL"),
                arguments: [head, note.idString])
        else { return }
        try cutHeadBody(head, fields: fields, body: note.body, db)
    }

    /// Stores head revision `head`, whose `fields` are whole, without `body` (the note row's):
    /// false, and left whole, when its fields do not hold that body as stored (`HeadBody.elide`).
    @discardableResult
    static func cutHeadBody(_ head: String, fields: String, body: String, _ db: Database) throws -> Bool {
        guard let (text, offset) = HeadBody.elide(Array(fields.utf8), body: body) else { return false }
        try db.run("UPDATE revision SET fields = ?, bodyAt = ? WHERE id = ?", [text, offset, head])
        return true
    }
}

/// An elided revision whose body cannot be put back (the row was damaged, or the invariant of
/// `HeadBody` broken): an internal error, like a revision whose fields do not parse.
struct HeadBodyDamage: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
