import Foundation
import GRDB
import NotesCore

/// Notebooks (ARCHITECTURE §2, SYNC-FORMAT rule 16): a notebook is a zone with a display name.
/// A notebook exists while a note lives in its zone or it has a name row that is not deleted.
extension NoteStore {
    /// Every notebook, by display name (folded), with its count of notes outside the trash.
    public func notebooks() throws -> [NotebookInfo] {
        try read { db in try Self.notebooks(db) }
    }

    static func notebooks(_ db: Database) throws -> [NotebookInfo] {
        // Every note by zone through `note_zone` alone, minus the trash through `note_trash`:
        // filtering on `deletedAt` read each row past its body (190 ms at 100k notes).
        var counts: [String: Int] = [:]
        for row in try Row.fetchAll(
            db.indexedStatement(sql: "SELECT zone, count(*) AS n FROM note INDEXED BY note_zone GROUP BY zone"))
        {
            counts[row["zone"]] = row["n"]
        }
        for row in try Row.fetchAll(
            db.indexedStatement(
                sql:
                    "SELECT zone, count(*) AS n FROM note INDEXED BY note_trash WHERE deletedAt IS NOT NULL GROUP BY zone"
            ))
        {
            let zone: String = row["zone"]
            counts[zone, default: 0] -= row["n"] as Int
        }
        counts = counts.filter { $0.value > 0 }
        var names: [String: String] = [:]
        var deleted: Set<String> = []
        for row in try Row.fetchAll(db, sql: "SELECT zone, displayName, deletedAt FROM notebook") {
            names[row["zone"]] = row["displayName"]
            if (row["deletedAt"] as Int64?) != nil { deleted.insert(row["zone"]) }
        }
        var zones = Set(counts.keys).union(names.keys.filter { !deleted.contains($0) })
        zones.insert(Note.defaultZone)
        let sharing = try Self.notebookSharing(db)
        return zones.map {
            NotebookInfo(zone: $0, name: names[$0] ?? $0, count: counts[$0] ?? 0, sharing: sharing[$0])
        }
        .sorted { (TextFolding.fold($0.name), $0.zone) < (TextFolding.fold($1.name), $1.zone) }
    }

    /// A zone's display name (its id when it has none): one primary-key lookup.
    public func displayName(ofNotebook zone: String) throws -> String {
        try read { db in
            try String.fetchOne(db, sql: "SELECT displayName FROM notebook WHERE zone = ?", arguments: [zone]) ?? zone
        }
    }

    /// The notebook a user names: its exact display name, else its zone id, else a display name
    /// equal once folded (case and accents), which must be unique.
    public func notebook(named reference: String) throws -> NotebookInfo {
        try Self.notebook(named: reference, in: notebooks())
    }

    /// `notebook(named:)` among `all`.
    static func notebook(named reference: String, in all: [NotebookInfo]) throws -> NotebookInfo {
        if let exact = all.first(where: { $0.name == reference }) { return exact }
        if let byZone = all.first(where: { $0.zone == reference }) { return byZone }
        let folded = TextFolding.fold(reference)
        let matches = all.filter { TextFolding.fold($0.name) == folded }
        if matches.count == 1 { return matches[0] }
        let shown = TerminalSafeText.sanitize(reference)
        if matches.isEmpty { throw StoreError(.notFound, "no notebook named \"\(shown)\"") }
        throw StoreError(
            .invalidInput,
            "\"\(shown)\" names several notebooks (\(matches.map(\.zone).joined(separator: ", "))); use a zone id")
    }

    /// Creates an empty notebook named `name`; its zone id is made from the name (NotebookSlug),
    /// with a suffix when that zone is in use or was used by a notebook deleted here.
    @discardableResult
    public func createNotebook(named name: String) throws -> NotebookInfo {
        let name = try Self.checkedName(name)
        return try write { db in
            let existing = try Self.notebooks(db)
            if existing.contains(where: { TextFolding.fold($0.name) == TextFolding.fold(name) }) {
                throw StoreError(.invalidInput, "a notebook named \"\(TerminalSafeText.sanitize(name))\" exists")
            }
            let taken = try Set(String.fetchAll(db, sql: "SELECT zone FROM notebook"))
                .union(existing.map(\.zone))
            var zone = NotebookSlug.slug(ofFolderPath: name)
            var n = 1
            while taken.contains(zone) {
                zone = NotebookSlug.withSuffix(NotebookSlug.slug(ofFolderPath: name), NotebookSlug.hash(name + "/\(n)"))
                n += 1
            }
            try setName(name, zone: zone, db)
            return NotebookInfo(zone: zone, name: name, count: 0)
        }
    }

    /// Renames a notebook: its zone stays; the new name is stamped and queued for sync (rule 16).
    @discardableResult
    public func renameNotebook(_ reference: String, to name: String) throws -> NotebookInfo {
        let name = try Self.checkedName(name)
        let notebook = try self.notebook(named: reference)
        return try write { db in
            let others = try Self.notebooks(db).filter { $0.zone != notebook.zone }
            if others.contains(where: { TextFolding.fold($0.name) == TextFolding.fold(name) }) {
                throw StoreError(.invalidInput, "a notebook named \"\(TerminalSafeText.sanitize(name))\" exists")
            }
            try setName(name, zone: notebook.zone, db)
            return NotebookInfo(zone: notebook.zone, name: name, count: notebook.count)
        }
    }

    /// Deletes a notebook: each of its notes goes to the trash first (an edit that syncs), then
    /// the zone is marked deleted here and its deletion marker queued (SYNC-FORMAT rule 12).
    /// The default notebook cannot be deleted. Returns the notebook and how many notes moved.
    public func deleteNotebook(_ reference: String) throws -> (notebook: NotebookInfo, trashed: Int) {
        let notebook = try self.notebook(named: reference)
        guard notebook.zone != Note.defaultZone else {
            throw StoreError(.invalidInput, "the default notebook \"\(notebook.name)\" cannot be deleted")
        }
        let trashed = try trashZone(notebook.zone)
        try write { db in
            try db.run(
                """
                INSERT INTO notebook(zone, displayName, deletedAt, deletionPending) VALUES (?, ?, ?, 1)
                ON CONFLICT(zone) DO UPDATE SET deletedAt = excluded.deletedAt, deletionPending = 1
                """, [notebook.zone, notebook.name, clock().millisecondsSince1970])
        }
        return (notebook, trashed)
    }

    /// Moves a note to a notebook (an edit of the note, so it syncs).
    @discardableResult
    public func move(_ id: UUID, toNotebook reference: String) throws -> Note {
        let notebook = try self.notebook(named: reference)
        return try update(id) { $0.zone = notebook.zone }
    }

    /// Gives each zone of `names` (zone → display name) that name when this device has no name
    /// or deletion for it: an import of an export names the notebooks it brings as they were
    /// named, and never renames one this device knows. Names are set as `setName` does (they
    /// sync, rule 16). Returns the zones named; a name `NotebookName.cleaned` refuses is skipped.
    @discardableResult
    public func nameNewNotebooks(_ names: [String: String]) throws -> [String] {
        try write { db in
            var named: [String] = []
            for (zone, proposed) in names.sorted(by: { $0.key < $1.key }) where Self.isValidZone(zone) {
                guard let name = NotebookName.cleaned(proposed), name != zone,
                    try Int.fetchOne(db, sql: "SELECT 1 FROM notebook WHERE zone = ?", arguments: [zone]) == nil
                else { continue }
                try setName(name, zone: zone, db)
                named.append(zone)
            }
            return named
        }
    }

    func setName(_ name: String, zone: String, _ db: Database) throws {
        let stamp = try nextHLC(db)
        try db.run(
            """
            INSERT INTO notebook(zone, displayName, nameHLC, nameDevice, namePending) VALUES (?, ?, ?, ?, 1)
            ON CONFLICT(zone) DO UPDATE SET displayName = excluded.displayName, nameHLC = excluded.nameHLC,
                nameDevice = excluded.nameDevice, namePending = 1, deletedAt = NULL
            """, [zone, name, stamp.packed, deviceID])
    }

    static func checkedName(_ name: String) throws -> String {
        guard let cleaned = NotebookName.cleaned(name) else {
            throw StoreError(
                .invalidInput,
                "a notebook name needs 1 to \(NotebookName.maxLength) characters on one line, without control characters"
            )
        }
        return cleaned
    }
}

/// Notebook names and deletions as the sync engine sees them (SYNC-FORMAT rules 12 and 16).
extension NoteStore {
    /// Names set here and not yet published, but shared notebooks' (they go to their places).
    public func pendingNotebookNames() throws -> [NotebookName] {
        try pendingNotebookNames(inZone: nil)
    }

    /// The pending name of one zone, or with `zone` nil those of every zone but the shared ones.
    public func pendingNotebookNames(inZone zone: String?) throws -> [NotebookName] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT zone, displayName, nameHLC, nameDevice FROM notebook
                    WHERE namePending = 1 AND \(zone == nil ? "zone NOT GLOB ?" : "zone = ?") ORDER BY zone
                    """, arguments: [zone ?? NotebookSlug.sharedZoneGlob]
            ).map(Self.notebookName(from:))
        }
    }

    /// Every stamped name held here goes out again (a move to a new container).
    public func requeueNotebookNames() throws {
        try write { db in try db.run("UPDATE notebook SET namePending = 1 WHERE nameHLC > 0") }
    }

    /// The name was published (under whatever device id the engine holds now).
    public func markNotebookNamePublished(_ name: NotebookName) throws {
        try write { db in
            try db.run(
                "UPDATE notebook SET namePending = 0, nameDevice = ? WHERE zone = ? AND nameHLC = ?",
                [name.device, name.zone, name.hlc.packed])
        }
    }

    /// The stamped name this device holds for a zone; nil when none was ever set or received.
    public func notebookName(zone: String) throws -> NotebookName? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT zone, displayName, nameHLC, nameDevice FROM notebook WHERE zone = ? AND nameHLC > 0",
                arguments: [zone]
            ).map(Self.notebookName(from:))
        }
    }

    /// Takes a name read from the cloud folder when it is newer than the one held (last writer
    /// wins by `(hlc, device)`); a local name it beats is no longer published. Returns whether
    /// the name changed here.
    @discardableResult
    public func applyNotebookName(_ name: NotebookName) throws -> Bool {
        try write { db in
            let current = try Row.fetchOne(
                db, sql: "SELECT zone, displayName, nameHLC, nameDevice FROM notebook WHERE zone = ? AND nameHLC > 0",
                arguments: [name.zone]
            ).map(Self.notebookName(from:))
            guard name.isNewer(than: current) else { return false }
            var clock = try hybridLogicalClock(db)
            // A later rename here must be stamped after the name it replaces (rule 7).
            if clock.receive(name.hlc, now: self.clock().millisecondsSince1970) { try persist(clock.last, db) }
            try db.run(
                """
                INSERT INTO notebook(zone, displayName, nameHLC, nameDevice, namePending) VALUES (?, ?, ?, ?, 0)
                ON CONFLICT(zone) DO UPDATE SET displayName = excluded.displayName, nameHLC = excluded.nameHLC,
                    nameDevice = excluded.nameDevice, namePending = 0
                """, [name.zone, name.displayName, name.hlc.packed, name.device])
            return current?.displayName != name.displayName
        }
    }

    /// Zones of notebooks deleted here whose deletion marker waits to be written.
    public func pendingZoneDeletions() throws -> [String] {
        try read { db in
            try String.fetchAll(
                db, sql: "SELECT zone FROM notebook WHERE deletionPending = 1 AND zone NOT GLOB ? ORDER BY zone",
                arguments: [NotebookSlug.sharedZoneGlob])
        }
    }

    public func markZoneDeletionPublished(_ zone: String) throws {
        try write { db in try db.run("UPDATE notebook SET deletionPending = 0 WHERE zone = ?", [zone]) }
    }

    static func notebookName(from row: Row) -> NotebookName {
        NotebookName(
            zone: row["zone"], displayName: row["displayName"], hlc: HLC(packed: row["nameHLC"]),
            device: row["nameDevice"])
    }
}
