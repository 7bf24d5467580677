import GRDB

/// The store's schema (ARCHITECTURE §2): frozen SQL, and derived data made by today's code.
///
/// A shipped step never changes and calls no code that can change: its SQL is kept as it ran.
/// What can be derived from the notes (folded sort titles and tags, search rowids, the search
/// index) is not a migration's job: `DerivedData` rebuilds it, with the code of the
/// running build, whenever the database's `PRAGMA user_version` is older than
/// `DerivedData.version`. A change of folding or of the index format bumps that number instead
/// of adding a migration that calls today's helpers.
///
/// New databases get the schema of v8 in one step (`baseline`: no FTS5 table created only to be
/// dropped); databases made by earlier builds run the frozen steps they have not applied yet.
/// Both go through one GRDB merged migration, `v8-baseline`, which replaces the identifiers of the
/// steps it merges. Add later changes as new migrations after it, frozen the same way.
enum Schema {
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v8-baseline", merging: Set(steps.map(\.id))) { db, applied in
            if applied.isEmpty {
                try db.execute(sql: baseline)
                // Nothing to derive in an empty database: its derived data is current.
                try DerivedData.markCurrent(db)
            } else {
                for step in steps where !applied.contains(step.id) { try db.execute(sql: step.sql) }
            }
        }
        for step in laterSteps {
            migrator.registerMigration(step.id) { db in try db.execute(sql: step.sql) }
        }
        return migrator
    }()

    /// Frozen: the links of each note's body (`LinkIndex`, derived data: filled by
    /// `DerivedData.rebuild` for notes written before it, kept by every write after).
    /// `targetKey` is the folded target (a note's `sortTitle` when it names it by title);
    /// `folderZone` the notebook a link's path names.
    static let links1 = """
        CREATE TABLE note_link (
            noteID TEXT NOT NULL REFERENCES note(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            kind TEXT NOT NULL,
            target TEXT NOT NULL,
            targetKey TEXT NOT NULL,
            folderZone TEXT,
            heading TEXT,
            shown TEXT,
            PRIMARY KEY (noteID, position)
        ) WITHOUT ROWID;
        CREATE INDEX note_link_by_target ON note_link(targetKey);
        """

    /// Frozen (ARCHITECTURE §2): notebooks' display names and their sync state (SYNC-FORMAT
    /// rule 16). `nameHLC`/`nameDevice` stamp the name this device holds (0 and '' for a name
    /// never set); `namePending` says it waits to be published; `deletionPending` that the
    /// notebook was deleted here and its zone's deletion marker waits to be written (rule 12).
    static let notebooks1 = """
        CREATE TABLE notebook (
            zone TEXT PRIMARY KEY NOT NULL,
            displayName TEXT NOT NULL,
            nameHLC INTEGER NOT NULL DEFAULT 0,
            nameDevice TEXT NOT NULL DEFAULT '',
            namePending INTEGER NOT NULL DEFAULT 0,
            deletedAt INTEGER,
            deletionPending INTEGER NOT NULL DEFAULT 0
        );
        """

    /// Frozen: the aliases of each note (its front matter's `aliases`, folded), by which links
    /// resolve when no note has the linked title (`LinkIndex`, derived data like `note_link`).
    static let aliases1 = """
        CREATE TABLE note_alias (
            noteID TEXT NOT NULL REFERENCES note(id) ON DELETE CASCADE,
            aliasKey TEXT NOT NULL,
            PRIMARY KEY (noteID, aliasKey)
        ) WITHOUT ROWID;
        CREATE INDEX note_alias_by_key ON note_alias(aliasKey);
        """

    /// `attachments-1`: a note's current attachments, and the chunk names of attachment content
    /// in a cloud folder (`folder`: the container's identity), so a republished note does not
    /// read its files again. The content itself is files in the data directory, never a blob.
    static let attachments1 = """
        CREATE TABLE attachment (
            noteID TEXT NOT NULL REFERENCES note(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            size INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            PRIMARY KEY (noteID, name)
        ) WITHOUT ROWID;
        CREATE INDEX attachment_by_content ON attachment(sha256);
        CREATE TABLE attachment_chunks (
            sha256 TEXT NOT NULL,
            folder TEXT NOT NULL,
            chunks TEXT NOT NULL,
            PRIMARY KEY (sha256, folder)
        ) WITHOUT ROWID;
        """

    /// Whether the database needs neither a migration nor a rebuild of derived data (a read).
    static func isCurrent(_ db: Database) throws -> Bool {
        try migrator.hasCompletedMigrations(db) && DerivedData.isCurrent(db)
    }

    /// What says that a newer build made this database, in words naming its version: a migration
    /// this build does not register (nor merges into `v8-baseline`), or a derived data version
    /// (`PRAGMA user_version`) above this build's. Nil for a database this build can write.
    static func newerBuildMarker(_ db: Database) throws -> String? {
        let known = Set(migrator.migrations).union(steps.map(\.id))
        let unknown = try migrator.appliedIdentifiers(db).subtracting(known).sorted()
        if !unknown.isEmpty {
            let names = unknown.map { "'\($0)'" }.joined(separator: ", ")
            let latest = migrator.migrations.last ?? ""
            return "its schema has migration \(names), and this build's latest is '\(latest)'"
        }
        let derived = try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if derived > DerivedData.version {
            return "its data version (user_version) is \(derived), and this build's is \(DerivedData.version)"
        }
        return nil
    }

    /// Migrates, then rebuilds derived data when it is older than this build's.
    static func migrate(_ writer: some DatabaseWriter) throws {
        try migrator.migrate(writer)
        try writer.write { db in
            if try !DerivedData.isCurrent(db) { try DerivedData.rebuild(db) }
        }
    }

    /// The migrations as earlier builds registered them, through `identifier`, for tests that make
    /// a database of an earlier schema.
    static func legacyMigrator(through identifier: String) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for step in steps {
            migrator.registerMigration(step.id) { db in try db.execute(sql: step.sql) }
            if step.id == identifier { break }
        }
        return migrator
    }

    /// The frozen steps after `v8-baseline`, in order.
    static let laterSteps: [(id: String, sql: String)] = [
        ("notebooks-1", notebooks1),
        ("links-1", links1),
        // Front matter keys of imported Markdown that CloudNotes does not use, kept for export
        // (`Note.frontMatter`: canonical JSON text of an object, NULL when none).
        ("frontmatter-1", "ALTER TABLE note ADD COLUMN frontMatter TEXT"),
        // A note's attachments (head fields) and where their content sits in a cloud folder as
        // chunks (SYNC-FORMAT rule 15).
        ("attachments-1", attachments1),
        ("aliases-1", aliases1),
        // Chunks this device wrote in a cloud folder (its own, which only it may delete by
        // compaction, SYNC-FORMAT rule 15): `folder` is the container's identity.
        (
            "chunks-1",
            "CREATE TABLE own_chunk (folder TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (folder, name)) WITHOUT ROWID"
        ),
        // When a collection first found an own chunk named by nothing (ms since 1970; NULL: named
        // at the last look): it is deleted only once it has stayed so for a grace period.
        ("chunks-2", "ALTER TABLE own_chunk ADD COLUMN unreferencedSince INTEGER"),
        // `created:` and `modified:` in a search (SearchConditionSQL): a range of the index
        // names the notes' searchRowids without reading their rows (a scan of `note` reads
        // every body: 200 ms at 100k notes).
        (
            "search-dates-1",
            """
            CREATE INDEX note_by_created_at ON note(createdAt, searchRowid);
            CREATE INDEX note_by_modified_at ON note(modifiedAt, searchRowid);
            """
        ),
        // A note's head revision without the body its note row holds (`HeadBody`): the byte
        // offset in `fields` where the body's escaped contents were cut out; NULL: stored whole.
        ("revision-body-1", "ALTER TABLE revision ADD COLUMN bodyAt INTEGER"),
        ("note-changes-1", noteChanges1),
        // The folded copy of every note's title, body and tags goes: searches fold the note row's
        // text as they check it, and the search rowids live in `note.searchRowid` (D-228). The
        // pages it held stay in the file until `compact` gives them back.
        ("search-text-dropped", "DROP TABLE search_text"),
        // A search's filters (`tag:`, `is:fav`, `in:`) name the notes' searchRowids from an index
        // without reading their rows, as `search-dates-1` does for dates: by id (the notes of a
        // tag), by favorite, by notebook (`note_zone` again, with the searchRowid after the
        // zone). Each read a row per note it allowed: `tag:work` at 100k notes read 14,793 rows,
        // 65 ms, and `is:fav` scanned the table. The first two are partial, for the statements
        // that ask for a searchRowid only: the list's count of favorites took the second in
        // place of `note_by_modified` and read every favorite's row (D-247).
        (
            "search-filters-1",
            """
            CREATE INDEX note_search_by_id ON note(id, searchRowid) WHERE searchRowid IS NOT NULL;
            CREATE INDEX note_search_by_favorite ON note(isFavorite, searchRowid) WHERE searchRowid IS NOT NULL;
            DROP INDEX note_zone;
            CREATE INDEX note_zone ON note(zone, searchRowid);
            """
        ),
    ]

    /// The steps of schema v1 to v8 as they ran, minus the calls into code that derived data
    /// (index builds, refolds, renumbering: `DerivedData` does that now).
    static let steps: [(id: String, sql: String)] = [
        (
            "v1",
            """
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

            """
        ),
        // Sentinels at the end of indexed text, and the vocabulary that lists trigrams (FTS5; the
        // index was rebuilt here, and v6 dropped it).
        (
            "v2-search-short-terms",
            """
            CREATE VIRTUAL TABLE note_fts_vocab USING fts5vocab(note_fts, 'row');
            INSERT INTO note_fts(note_fts, rank) VALUES ('automerge', 16);
            INSERT INTO note_fts(note_fts, rank) VALUES ('crisismerge', 64);
            """
        ),
        // searchRowid went from 256 to 4096 rowids per millisecond (renumbered: derived data).
        ("v3-search-rowid-slots", ""),
        // TextFolding folded ligatures (ﬁ → fi) and ſ (refolded: derived data).
        ("v4-fold-ligatures", ""),
        // The causal buffer of SYNC-FORMAT rule 5, and a partial index of notes in conflict.
        (
            "v5-sync",
            """
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

            """
        ),
        // Our own trigram index replaces FTS5 (the index is derived data).
        (
            "v6-trigram-index",
            """
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

            """
        ),
        // TextFolding keeps Indic and Thai vowel signs (refolded and reindexed: derived data).
        ("v7-fold-diacritics-only", ""),
        // Titles of notes in the trash by their fold (NoteStore.ids(titled:)).
        ("v8-trash-title-index", "CREATE INDEX note_trash_by_title ON note(sortTitle) WHERE deletedAt IS NOT NULL"),
    ]

    /// The schema of v8 for a new database, in one step.
    static let baseline = """
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

            CREATE INDEX note_trash_by_title ON note(sortTitle) WHERE deletedAt IS NOT NULL;
        """
}
