import Foundation
import NotesCore

/// Anchored parsing of every name read from the cloud folder (SYNC-FORMAT and §7 "Paths").
///
/// A name is accepted only when it has exactly the form the app writes; anything else (a
/// traversal like `../x`, an absolute path, a NUL byte, `desktop.ini`, `.DS_Store`, temp files,
/// a renamed copy) is ignored by the hot path and counted by the caller.
public enum CloudName {
    /// `<seq>.json`, 12 digits, seq ≥ 1.
    public static func logFile(_ name: String) -> Int64? {
        guard name.hasSuffix(".json") else { return nil }
        return number(String(name.dropLast(5))).flatMap { $0 >= 1 ? $0 : nil }
    }

    /// A segment folder: 12 digits.
    public static func segment(_ name: String) -> Int64? { number(name) }

    /// `<dev>.json`.
    public static func deviceFile(_ name: String) -> DeviceID? {
        guard name.hasSuffix(".json") else { return nil }
        return DeviceID(String(name.dropLast(5)))
    }

    /// `<dev>-<hlc>.json`, the hlc as `HLC.description` prints it.
    public static func deletedMarker(_ name: String) -> (device: DeviceID, hlc: HLC)? {
        guard name.hasSuffix(".json"), name.utf8.count == 16 + 1 + 21 + 5 else { return nil }
        let stem = Array(name.utf8.dropLast(5))
        guard stem[16] == UInt8(ascii: "-"),
            let device = DeviceID(String(decoding: stem[..<16], as: UTF8.self)),
            let hlc = HLC(String(decoding: stem[17...], as: UTF8.self)),
            String(decoding: stem[17...], as: UTF8.self) == hlc.description
        else { return nil }
        return (device, hlc)
    }

    /// `<dev>-<seq>.json`.
    public static func snapshotFile(_ name: String) -> (device: DeviceID, seq: Int64)? {
        guard name.hasSuffix(".json"), name.utf8.count == 16 + 1 + CloudLayout.numberWidth + 5 else { return nil }
        let stem = Array(name.utf8.dropLast(5))
        guard stem[16] == UInt8(ascii: "-"), let device = DeviceID(String(decoding: stem[..<16], as: UTF8.self)),
            let seq = number(String(decoding: stem[17...], as: UTF8.self))
        else { return nil }
        return (device, seq)
    }

    /// A temp file of rule 2, `.<name>.tmp-<dev>-<random>`; returns the writer's device id.
    public static func temporaryFile(_ name: String) -> DeviceID? {
        guard name.hasPrefix("."), let marker = name.range(of: ".tmp-", options: .backwards) else { return nil }
        let rest = name[marker.upperBound...]
        guard let dash = rest.firstIndex(of: "-") else { return nil }
        return DeviceID(String(rest[..<dash]))
    }

    /// Exactly `CloudLayout.numberWidth` ASCII digits.
    static func number(_ text: String) -> Int64? {
        guard text.utf8.count == CloudLayout.numberWidth,
            text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int64(text)
    }
}
