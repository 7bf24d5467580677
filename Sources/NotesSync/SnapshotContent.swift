import CloudFolder
import NotesCore

/// The `state` of a zone snapshot as this engine writes and reads it (SYNC-FORMAT rule 11).
///
/// `{"revisions": [<record>, …]}`: every revision the writer holds for the zone's notes, each
/// encoded exactly as in a change batch (`ChangeRecord`, its id checked on reading). The whole
/// history, not only heads and their common ancestors: a returning device's pending edit may
/// name any earlier revision as its parent, and every device must be able to receive it.
enum SnapshotContent {
    /// Fields travel inline; attachments name their chunks in `assets` (rule 15), written first.
    static func state(_ revisions: [Revision], assets: (any AssetStore)? = nil, device: DeviceID? = nil) -> (
        state: JSONValue, count: Int
    ) {
        var records: [JSONValue] = []
        records.reserveCapacity(revisions.count)
        // Only heads carry their attachments' chunks: a device loading the snapshot needs no
        // other content, so chunks only history names can be collected (rule 15).
        let parents = Set(revisions.lazy.flatMap(\.parents))
        for revision in revisions {
            // A record over the size limit never went out in a log either.
            guard
                let json = try? ChangeRecord(revision).json(
                    assets: assets, device: device, inlineFields: true,
                    attachmentContent: !parents.contains(revision.id))
            else { continue }
            records.append(json)
        }
        return (.object(["revisions": .array(records)]), records.count)
    }

    /// The revisions of a snapshot; throws when any record is malformed or its id does not
    /// match its content (the snapshot is then treated as not arrived). Records with a value out
    /// of range are refused on their own (`refused`), as in a change batch.
    /// Attachments are read from `assets` into the device's content first (rule 15); a history
    /// record without chunks is applied without its content.
    static func revisions(_ state: JSONValue, assets: (any AssetStore)? = nil) throws -> ChangeBatch {
        guard let items = state["revisions"]?.arrayValue else {
            throw CloudError(.invalidArguments, "a snapshot's state has no revisions")
        }
        var batch = ChangeBatch(records: [])
        // Only a record some other record names as parent may go without its chunks: a head
        // always carries them.
        let parents = Set(items.lazy.compactMap { $0["parents"]?.arrayValue }.joined().compactMap(\.stringValue))
        for item in items {
            do {
                let history = item["rev"]?.stringValue.map(parents.contains) ?? false
                batch.records.append(try ChangeRecord(json: item, assets: assets, contentOptional: history))
            } catch let error as ChangeRecord.OutOfRange {
                batch.refused.append(error)
            }
        }
        return batch
    }
}
