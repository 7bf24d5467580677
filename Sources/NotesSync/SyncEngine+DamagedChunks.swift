import CloudFolder
import Foundation
import NotesCore

/// The writer's side of a chunk that does not check out (SYNC-FORMAT rule 15, "Device files"):
/// readers name the chunks their records wait for in their device files (`waitingFor`); the
/// device that wrote one, or holds its content, checks it and says so (`status`, the app's
/// status line) until `sync --repair` writes it again.
extension SyncEngine {
    /// How often a sync reads the other devices' files to look for chunks of its own they wait
    /// for (a listing and a read per device); `status` always looks.
    static let damageCheckInterval: Int64 = 10 * 60_000

    /// Looks for damaged chunks of this device's when the last look is older than
    /// `damageCheckInterval`, and warns about each one found.
    func checkDamagedChunksIfDue(now: Int64) throws {
        guard let folder else { return }
        if let last = lastDamageCheck, now - last < Self.damageCheckInterval { return }
        var infos: [DeviceID: DeviceInfo] = [:]
        for id in try folder.devices().items where id != device {
            // A device file that does not read announces nothing; it is reported where it is read
            // for what it holds (compaction, `status`).
            if let info = try? folder.readDevice(id) { infos[id] = info }
        }
        damagedChunks = try damagedChunks(in: folder, waitedForBy: infos)
        lastDamageCheck = now
        for chunk in damagedChunks { warn(chunk.message) }
    }

    /// Of the chunks other devices' files say they wait for, those of this device that do not
    /// check out now: chunks it wrote, of attachment content it holds, or of a large note's
    /// fields it stores (any revision it holds whose fields travelled as chunks, its own or
    /// received). The fields are read back only for names the attachments do not settle.
    func damagedChunks(in folder: any CloudFolder, waitedForBy infos: [DeviceID: DeviceInfo]) throws
        -> [DamagedChunk]
    {
        guard let assets = folder as? any AssetStore else { return [] }
        let names = Set(infos.filter { $0.key != device }.values.flatMap(\.waitingFor))
        guard !names.isEmpty else { return [] }
        var found: [String: DamagedChunk] = [:]
        for chunk in try assets.damagedChunks(among: names) { found[chunk.name] = chunk }
        let unsettled = names.filter { found[$0]?.repairable != true }
        if !unsettled.isEmpty {
            try store.forEachLargeFields(over: ChangeRecord.inlineFieldsBytes) { bytes in
                for chunk in try assets.damagedChunks(of: bytes, among: unsettled) { found[chunk.name] = chunk }
            }
        }
        return found.values.sorted { $0.name < $1.name }
    }

    /// Writes again every chunk of a large note's fields this device stores that a file in the
    /// folder names, or another device waits for, and that is missing or does not check out
    /// (`sync --repair`, rule 15); returns how many. The folder's files are read for the names
    /// they carry only when this device holds such fields.
    func repairFieldsChunks(in folder: any CloudFolder, assets: any AssetStore) throws -> Int {
        var names: Set<String>?
        var written = 0
        try store.forEachLargeFields(over: ChangeRecord.inlineFieldsBytes) { bytes in
            if names == nil {
                var wanted = Set<String>()
                for id in try folder.devices().items where id != device {
                    // A device file that does not read names nothing; it is reported where it is read.
                    if let info = try? folder.readDevice(id) { wanted.formUnion(info.waitingFor) }
                }
                // A file whose names cannot be read adds none; the waiting devices still name theirs.
                names = wanted.union(try assets.chunkNamesInFolder() ?? [])
            }
            written += try assets.repairChunks(of: bytes, named: names ?? [], device: device)
        }
        return written
    }
}
