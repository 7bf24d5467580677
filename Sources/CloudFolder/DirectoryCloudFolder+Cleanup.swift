/// Removal of temp files that a crash left behind (SYNC-FORMAT rules 1 and 2).
extension DirectoryCloudFolder {
    /// Removes `device`'s own temp files (`.<name>.tmp-<device>-<random>`) from its log folders
    /// in every zone and from the devices folder; returns their paths. Other devices' files are
    /// never touched (rule 1). Call it at start, before this device publishes anything.
    @discardableResult
    public func removeOwnTemporaryFiles(device: DeviceID) throws -> [String] {
        try requireContainer()
        var folders = [layout.devicesDirectory]
        for zone in try zones().items {
            let deviceFolder = layout.deviceLogDirectory(zone, device: device)
            guard try io.isFolder(deviceFolder) else { continue }
            for name in try io.list(deviceFolder) where CloudName.segment(name) != nil {
                if try io.isFolder(deviceFolder + "/" + name) { folders.append(deviceFolder + "/" + name) }
            }
            folders.append(layout.zoneDirectory(zone))
            folders.append(layout.deletedDirectory(zone))
        }
        var removed: [String] = []
        for folder in folders {
            for name in try io.listIfPresent(folder) where CloudName.temporaryFile(name) == device {
                let path = folder + "/" + name
                guard case .regular = try io.kind(path) else { continue }
                try io.remove(path)
                removed.append(path)
            }
        }
        return removed.sorted()
    }
}
