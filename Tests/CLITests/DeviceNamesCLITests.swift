import Foundation
import Testing

/// Conflicts and history name devices by their `deviceName`, as `status` does; the stored text
/// keeps the device ids its markers were merged with (every device computes the same merge).
@Suite struct DeviceNamesCLITests {
    @Test func conflictsAndHistoryNameTheDevicesThatWroteEachVersion() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let cloud = cli.home.appendingPathComponent("cloud").path
        let (a, b) = (cli.device("a"), cli.device("b"))
        let configs = try ["laptop", "desktop"].map { name in
            let file = cli.home.appendingPathComponent("\(name).json")
            try Data(#"{"deviceName": "\#(name)"}"#.utf8).write(to: file)
            return file.path
        }
        func on(_ device: URL, _ config: String, _ arguments: String...) throws -> CLIRunner.Result {
            let result = try cli.run(arguments + ["--data-dir", device.path, "--config", config])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result
        }
        _ = try on(a, configs[0], "sync", "init", cloud)
        _ = try on(b, configs[1], "sync", "init", cloud)
        let id = try on(a, configs[0], "add", "Shopping", "--body", "milk\n").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try on(a, configs[0], "sync")
        _ = try on(b, configs[1], "sync")
        _ = try on(a, configs[0], "edit", id, "--body", "oat milk\n")
        _ = try on(b, configs[1], "edit", id, "--body", "soy milk\n")
        for (device, config) in [(a, configs[0]), (b, configs[1]), (a, configs[0])] {
            _ = try on(device, config, "sync")
        }

        let conflicts = try on(a, configs[0], "conflicts").stdout
        #expect(conflicts.contains("laptop (this device)"), "\(conflicts)")
        #expect(conflicts.contains("desktop"), "\(conflicts)")
        let history = try on(a, configs[0], "history", id).stdout
        #expect(history.contains("laptop") && history.contains("desktop"), "\(history)")
        let json = try on(b, configs[1], "history", id, "--json").stdout
        #expect(json.contains(#""deviceName" : "laptop""#), "\(json)")
        // Piped, `show` writes the stored bytes: the markers keep the device ids.
        let body = try on(a, configs[0], "show", id).stdout
        #expect(body.contains("<<<<<<< ") && !body.contains("laptop"), "\(body)")
    }
}
