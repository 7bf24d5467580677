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
    /// check out now.
    func damagedChunks(in folder: any CloudFolder, waitedForBy infos: [DeviceID: DeviceInfo]) throws
        -> [DamagedChunk]
    {
        guard let assets = folder as? any AssetStore else { return [] }
        let names = Set(infos.filter { $0.key != device }.values.flatMap(\.waitingFor))
        return try assets.damagedChunks(among: names)
    }
}
