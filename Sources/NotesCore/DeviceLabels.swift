import Foundation

/// How people see devices: by the name each gave itself (`deviceName`), not by its id.
///
/// Revisions, merges and conflict markers carry device ids, which every device has and which
/// cannot change, so that every device computes the same merge (SYNC-FORMAT rule 8). Where a
/// person reads them (history, conflicts, the resolver, a marker line in the preview), the id
/// is shown as the device's name; where two devices share a name, the name is followed by the
/// id's first six characters; a device whose name is not known yet shows its id's first eight.
/// Names come from other devices: untrusted text, made terminal-safe here.
public struct DeviceLabels: Sendable, Equatable {
    /// Device id → name.
    public private(set) var names: [String: String]
    /// This device's id, shown as `thisDevice` where a caller asks for it.
    public var thisDevice: String?

    public init(names: [String: String] = [:], thisDevice: String? = nil) {
        self.names = names.compactMapValues { name in
            let clean = TerminalSafeText.sanitize(name).trimmingCharacters(in: .whitespaces)
            return clean.isEmpty ? nil : clean
        }
        self.thisDevice = thisDevice
    }

    /// The label of device `id`: its name, its name and id prefix when another known device has
    /// the same name, or the id's prefix when its name is unknown.
    public func label(_ id: String) -> String {
        guard let name = names[id] else { return String(TerminalSafeText.sanitize(id).prefix(8)) }
        let collides = names.contains { $0.key != id && $0.value == name }
        return collides ? "\(name) (\(id.prefix(6)))" : name
    }

    /// `label`, with " (this device)" after this device's own.
    public func describe(_ id: String) -> String {
        id == thisDevice ? label(id) + " (this device)" : label(id)
    }

    /// `text` with the label of each conflict marker line (`<<<<<<< id`, `>>>>>>> id`) that names
    /// a known device shown as that device's label: for display only, never for what is saved.
    public func relabelingMarkers(in text: String) -> String {
        guard Self.hasMarkers(text) else { return text }
        // Split on the LF byte ("\r\n" is one Character in Swift): a CR stays with its line.
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        return lines.map { relabel(String(Substring($0))) }.joined(separator: "\n")
    }

    /// Whether `text` may hold a conflict marker line, which `relabelingMarkers` would relabel:
    /// without one, a caller need not read the names at all.
    public static func hasMarkers(_ text: String) -> Bool {
        text.contains(TextMerge.oursMarker) || text.contains(TextMerge.theirsMarker)
    }

    private func relabel(_ line: String) -> String {
        for marker in [TextMerge.oursMarker, TextMerge.theirsMarker] where line.hasPrefix(marker + " ") {
            var label = line.dropFirst(marker.count + 1)
            let ending = label.hasSuffix("\r") ? "\r" : ""
            if !ending.isEmpty { label = label.dropLast() }
            guard names[String(label)] != nil else { return line }
            return marker + " " + self.label(String(label)) + ending
        }
        return line
    }
}
