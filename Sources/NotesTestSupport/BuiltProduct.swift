import Foundation

/// Executables SwiftPM built beside the running test bundle.
public enum BuiltProduct {
    /// The path of the executable product `name` (e.g. `cloudnotes`) in the build folder the
    /// tests run from: the test binary's folder or one of its parents.
    public static func url(_ name: String) -> URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name)
    }
}
