import GRDB

/// The store's schema, as GRDB migrations (ARCHITECTURE §2). Never edit a shipped migration; add one.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE note (
                        id TEXT PRIMARY KEY NOT NULL,
                        zone TEXT NOT NULL,
                        title TEXT NOT NULL,
                        body TEXT NOT NULL,
                        tags TEXT NOT NULL DEFAULT '[]',
                        isFavorite INTEGER NOT NULL DEFAULT 0,
                        createdAt INTEGER NOT NULL,
                        modifiedAt INTEGER NOT NULL,
                        deletedAt INTEGER,
                        headRev TEXT,
                        syncState TEXT NOT NULL DEFAULT 'pending',
                        sortTitle TEXT NOT NULL,
                        searchRowid INTEGER UNIQUE
                    );
                    CREATE INDEX note_by_modified ON note(isFavorite, modifiedAt DESC, id) WHERE deletedAt IS NULL;
                    CREATE INDEX note_by_title ON note(isFavorite, sortTitle, id) WHERE deletedAt IS NULL;
                    CREATE INDEX note_trash ON note(deletedAt DESC) WHERE deletedAt IS NOT NULL;
                    CREATE INDEX note_zone ON note(zone);

                    CREATE TABLE note_tag (
                        noteID TEXT NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                        tag TEXT NOT NULL,
                        foldedTag TEXT NOT NULL,
                        PRIMARY KEY (noteID, tag)
                    ) WITHOUT ROWID;
                    CREATE INDEX note_tag_folded ON note_tag(foldedTag);

                    CREATE TABLE revision (
                        id TEXT PRIMARY KEY NOT NULL,
                        recordID TEXT NOT NULL,
                        parents TEXT NOT NULL,
                        fields TEXT,
                        hlc INTEGER NOT NULL,
                        device TEXT NOT NULL
                    );
                    CREATE INDEX revision_by_record ON revision(recordID, hlc);

                    CREATE TABLE outbox (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        recordID TEXT NOT NULL,
                        zone TEXT NOT NULL,
                        revID TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('save', 'delete')),
                        createdAt INTEGER NOT NULL
                    );
                    CREATE INDEX outbox_by_record ON outbox(recordID);

                    CREATE TABLE sync_state (
                        key TEXT PRIMARY KEY NOT NULL,
                        value BLOB NOT NULL
                    );

                    CREATE TABLE search_title (
                        rowid INTEGER PRIMARY KEY,
                        title TEXT NOT NULL
                    );
                    CREATE VIRTUAL TABLE note_fts USING fts5(
                        title, body, tags,
                        tokenize = 'trigram case_sensitive 1',
                        detail = full
                    );
                    """)
        }
        migrator.registerMigration("v2-search-short-terms") { db in
            // Sentinels at the end of indexed text, and the vocabulary that lists trigrams, so
            // that rare one- and two-scalar terms are index lookups too (SearchPlan).
            try db.execute(sql: "CREATE VIRTUAL TABLE note_fts_vocab USING fts5vocab(note_fts, 'row')")
            // Merge segments less eagerly: a third less CPU per indexed note at 100k notes, for
            // about 1 ms more per lookup.
            try db.execute(sql: "INSERT INTO note_fts(note_fts, rank) VALUES ('automerge', 16)")
            try db.execute(sql: "INSERT INTO note_fts(note_fts, rank) VALUES ('crisismerge', 64)")
            // (This rebuilt the FTS5 index; v6 replaced that index and builds its own.)
        }
        migrator.registerMigration("v3-search-rowid-slots") { db in
            // searchRowid went from 256 to SearchIndex.slotsPerMillisecond rowids per millisecond
            // (the FTS5 index was rebuilt here; v6 builds the index that replaced it).
            try SearchIndex.renumber(db)
        }
        migrator.registerMigration("v4-fold-ligatures") { db in
            // TextFolding now folds ligatures (ﬁ → fi) and ſ (the FTS5 index was rebuilt here;
            // v6 builds the index that replaced it).
            try SearchIndex.refold(db)
        }
        migrator.registerMigration("v5-sync") { db in
            // The causal buffer of SYNC-FORMAT rule 5: fetched revisions whose parents have not
            // arrived yet; moved to `revision` once they have (NoteStore+SyncApply.swift).
            try db.execute(
                sql: """
                    CREATE TABLE sync_buffer (
                        id TEXT PRIMARY KEY NOT NULL,
                        recordID TEXT NOT NULL,
                        parents TEXT NOT NULL,
                        fields TEXT,
                        hlc INTEGER NOT NULL,
                        device TEXT NOT NULL
                    );
                    CREATE INDEX sync_buffer_by_record ON sync_buffer(recordID);
                    CREATE INDEX note_conflicts ON note(id) WHERE syncState = 'conflict';
                    """)
        }
        migrator.registerMigration("v6-trigram-index") { db in
            // Our own trigram index replaces FTS5 (SearchIndex): a tenth of the cost per indexed
            // note, and no positions stored.
            try db.execute(
                sql: """
                    DROP TABLE IF EXISTS note_fts_vocab;
                    DROP TABLE IF EXISTS note_fts;
                    DROP TABLE IF EXISTS search_title;
                    CREATE TABLE search_text (
                        rowid INTEGER PRIMARY KEY,
                        title TEXT NOT NULL,
                        body TEXT NOT NULL
                    );
                    CREATE TABLE search_segment (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        documents INTEGER NOT NULL,
                        docs BLOB NOT NULL
                    );
                    CREATE TABLE search_posting (
                        rowid INTEGER PRIMARY KEY,
                        docs BLOB NOT NULL
                    );
                    """)
            try SearchIndex.rebuild(db)
        }
        migrator.registerMigration("v7-fold-diacritics-only") { db in
            // TextFolding drops only the nonspacing marks that are diacritics (and variation
            // selectors), no longer Indic and Thai vowel signs: sort titles, folded tags and the
            // search text and index are made again (ARCHITECTURE §5). Not frozen logic: it folds
            // with TextFolding as built when it runs. That is what it must produce (a later fold
            // change adds its own migration, which runs after this one), and refold + rebuild
            // derive everything from the notes' own text, so running it with a later fold is
            // only wasted work, never a wrong result. A store without such text (no note has
            // a vowel sign or another mark the fold now keeps) keeps its index.
            try SearchIndex.refold(db)
            if try SearchIndex.hasTextFoldedDifferentlySinceV7(db) { try SearchIndex.rebuild(db) }
        }
        migrator.registerMigration("v8-trash-title-index") { db in
            // Naming a note by exact title (and every id prefix, which may be a title too) looks
            // titles up by their fold: live notes in note_by_title, notes in the trash here
            // (NoteStore.ids(titled:)). Only trashed notes pay for this index.
            try db.execute(
                sql: "CREATE INDEX note_trash_by_title ON note(sortTitle) WHERE deletedAt IS NOT NULL")
        }
        return migrator
    }
}
