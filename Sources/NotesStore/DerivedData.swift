import GRDB

/// What the store derives from the notes with the running build's code: folded sort titles and
/// tags (`TextFolding`), search rowids (`SearchIndex.slotsPerMillisecond`) and the trigram
/// index (no folded copy of the text is stored since D-228).
///
/// Its version is the database's `PRAGMA user_version`. Bump `version` whenever any of these
/// changes what it derives (a folding rule, the slot count, the index format): every database
/// then rebuilds once, on its next open, with the new code. Migrations stay frozen SQL.
enum DerivedData {
    /// 1: folding that drops only diacritics and variation selectors, 4096 rowids per
    /// millisecond, trigram index segments (varint posting lists).
    /// 0 (no number yet): made by a build of schema v8 or earlier.
    /// 2: the link index (`note_link`, migration links-1) of every note.
    /// 3: the alias index (`note_alias`, migration aliases-1) of every note.
    static let version: Int32 = 3

    static func isCurrent(_ db: Database) throws -> Bool {
        try Int32.fetchOne(db, sql: "PRAGMA user_version") == version
    }

    static func markCurrent(_ db: Database) throws {
        try db.execute(sql: "PRAGMA user_version = \(version)")
    }

    /// Folds sort titles and tags again (writing the rows whose fold changed), and renumbers
    /// search rowids and rebuilds the search index, skipping what this database provably does not
    /// need: a store of 0 that has an index was indexed by a build of v6-v8 (4096 slots, the
    /// trigram index, the fold before 1), and only text with a mark the fold now keeps folds
    /// differently since then, so such a store without that text keeps its index (a 100k-note
    /// store opens in under a second instead of rebuilding for several).
    static func rebuild(_ db: Database) throws {
        let from = try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        // A database of 1 has today's folding and search index: only the links (and aliases) are
        // new; one of 2 lacks only the aliases.
        if from < 1 {
            try SearchIndex.refold(db)
            let indexed = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM search_segment)") ?? false
            if from == 0 && indexed {
                if try SearchIndex.hasTextFoldedDifferentlySinceV7(db) { try SearchIndex.rebuild(db) }
            } else {
                try SearchIndex.renumber(db)
                try SearchIndex.rebuild(db)
            }
        }
        if from < 2 { try LinkIndex.rebuild(db) }
        try LinkIndex.rebuildAliases(db)
        try markCurrent(db)
    }
}
