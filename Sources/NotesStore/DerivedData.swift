import GRDB

/// What the store derives from the notes with the running build's code: folded sort titles and
/// tags (`TextFolding`), search rowids (`SearchIndex.slotsPerMillisecond`), the folded search
/// text and the trigram index.
///
/// Its version is the database's `PRAGMA user_version`. Bump `version` whenever any of these
/// changes what it derives (a folding rule, the slot count, the index format): every database
/// then rebuilds once, on its next open, with the new code. Migrations stay frozen SQL.
enum DerivedData {
    /// 1: folding that drops only diacritics and variation selectors, 4096 rowids per
    /// millisecond, trigram index segments (varint posting lists).
    static let version: Int32 = 1

    static func isCurrent(_ db: Database) throws -> Bool {
        try Int32.fetchOne(db, sql: "PRAGMA user_version") == version
    }

    static func markCurrent(_ db: Database) throws {
        try db.execute(sql: "PRAGMA user_version = \(version)")
    }

    /// Folds sort titles and tags again, renumbers search rowids and rebuilds the search index.
    static func rebuild(_ db: Database) throws {
        try SearchIndex.refold(db)
        try SearchIndex.renumber(db)
        try SearchIndex.rebuild(db)
        try markCurrent(db)
    }
}
