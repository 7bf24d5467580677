import Foundation
import NotesCore
import Testing

/// The settings model (issue 25): newest `(hlc, device)` wins, removals are kept, CloudKit's
/// limits refuse with nothing changed, another account's values are replaced.
@Suite struct SettingsStateTests {
    static func setting(_ key: String, _ value: String?, _ millis: Int64, _ device: String = "bbbbbbbbbbbbbbbb")
        -> SyncedSetting
    {
        SyncedSetting(key: key, value: value, hlc: HLC(millis: millis), device: device)
    }

    @Test func theNewestWriteWinsByStampThenByDeviceInAnyOrder() {
        let writes = [
            Self.setting("autosaveSeconds", "2", 100, "aaaaaaaaaaaaaaaa"),
            Self.setting("autosaveSeconds", "3", 100, "cccccccccccccccc"),
            Self.setting("autosaveSeconds", "4", 90, "zzzzzzzzzzzzzzzz"),
            Self.setting("autosaveSeconds", nil, 80),
        ]
        for order in [writes, writes.reversed(), [writes[2], writes[0], writes[3], writes[1]]] {
            var state = SettingsState()
            for write in order { state.receive(write) }
            #expect(state.values == ["autosaveSeconds": "3"], "\(order.map(\.value))")
        }
    }

    @Test func aRemovalIsKeptSoAnOlderWriteDoesNotBringTheValueBack() {
        var state = SettingsState()
        let received1 = state.receive(Self.setting("bodyHashtags", "true", 100))
        #expect(received1)
        let received2 = state.receive(Self.setting("bodyHashtags", nil, 200))
        #expect(received2)
        let received3 = state.receive(Self.setting("bodyHashtags", "true", 150))
        #expect(!received3)
        #expect(state.values.isEmpty)
        #expect(state.synced["bodyHashtags"]?.value == nil && state.synced["bodyHashtags"] != nil)
    }

    @Test func aLocalWriteIsPendingUntilANewerOneFromElsewhereBeatsIt() throws {
        var state = SettingsState()
        try state.set("theme.accent", "cyan", hlc: HLC(millis: 100), device: "aaaaaaaaaaaaaaaa")
        #expect(state.pending == ["theme.accent"])
        let received4 = state.receive(Self.setting("theme.accent", "red", 50))
        #expect(!received4, "older: ours stands")
        #expect(state.pending == ["theme.accent"])
        let received5 = state.receive(Self.setting("theme.accent", "red", 150))
        #expect(received5)
        #expect(state.pending.isEmpty, "beaten everywhere: not sent")
        #expect(state.values["theme.accent"] == "red")
    }

    @Test func pastCloudKitsLimitsAWriteIsRefusedAndNothingChanges() throws {
        var state = SettingsState()
        // 1,023 keys from a newer version's settings, plus one known key: 1,024 in all.
        for index in 0..<1023 { state.receive(Self.setting("later.key\(index)", "x", 10)) }
        try state.set("autosaveSeconds", "3", hlc: HLC(millis: 20), device: "aaaaaaaaaaaaaaaa")
        let full = state
        do {
            try state.set("bodyHashtags", "true", hlc: HLC(millis: 30), device: "aaaaaaaaaaaaaaaa")
            Issue.record("the 1,025th key was written")
        } catch let error as SettingsError {
            #expect(error.code == .quotaViolation)
        }
        #expect(state == full)
        do {
            try state.set("conflictStrategy", "askUser", hlc: HLC(millis: 30), device: "aaaaaaaaaaaaaaaa")
            Issue.record("the 1,025th key was written")
        } catch let error as SettingsError {
            #expect(error.code == .quotaViolation)
            #expect(error.message.contains("at most 1024 settings sync"), "\(error.message)")
        }
        // Replacing a key that exists stays within the count.
        try state.set("autosaveSeconds", "4", hlc: HLC(millis: 40), device: "aaaaaaaaaaaaaaaa")
        #expect(state.values["autosaveSeconds"] == "4")
    }

    @Test func aValueOver64KBOrPast1MBInAllIsAQuotaViolation() throws {
        #expect(throws: SettingsError.self) {
            try SettingsState.validate(key: "theme.accent", value: String(repeating: "x", count: 65_537))
        }
        var state = SettingsState()
        // Values from elsewhere filling 1 MB but for 20 bytes.
        for index in 0..<15 {
            state.receive(Self.setting("later.big\(index)", String(repeating: "y", count: 65_000), 10))
        }
        let used = state.values.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        let filler = SettingsState.maxTotalBytes - used - 20 - "later.filler".utf8.count
        state.receive(Self.setting("later.filler", String(repeating: "z", count: filler), 10))
        let before = state
        do {
            try state.set("conflictStrategy", "askUser", hlc: HLC(millis: 20), device: "aaaaaaaaaaaaaaaa")
            Issue.record("written past 1 MB")
        } catch let error as SettingsError {
            #expect(error.code == .quotaViolation && error.message.contains("1 MB"), "\(error.message)")
        }
        let unchanged = state == before
        #expect(unchanged)
        // A smaller one still fits (16 bytes).
        try state.set("bodyHashtags", "true", hlc: HLC(millis: 30), device: "aaaaaaaaaaaaaaaa")
    }

    @Test func anotherAccountsSettingsReplaceTheHeldOnesButNotWhatWaitsToBeSent() throws {
        var state = SettingsState()
        state.adopt(container: "first")
        state.receive(Self.setting("autosaveSeconds", "3", 10))
        state.seen = ["bbbbbbbbbbbbbbbb-0000000000000010-0000"]
        try state.set("theme.accent", "cyan", hlc: HLC(millis: 20), device: "aaaaaaaaaaaaaaaa")
        state.adopt(container: "first")
        #expect(state.values.count == 2, "the same account keeps everything")
        state.adopt(container: "second")
        #expect(state.values == ["theme.accent": "cyan"])
        #expect(state.seen.isEmpty)
        #expect(state.pending == ["theme.accent"])
    }

    @Test func theConfigInForceIsDefaultsThenSyncedThenFileThenHere() throws {
        var state = SettingsState()
        state.receive(Self.setting("autosaveSeconds", "3", 10))
        state.receive(Self.setting("syncDebounceSeconds", "7", 10))
        state.receive(Self.setting("theme.accent", "cyan", 10))
        state.receive(Self.setting("theme.muted", "blue", 10))
        state.receive(Self.setting("pollIntervalSeconds", "not a number", 10))
        state.here["syncDebounceSeconds"] = "9"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("config.json")
        try Data(#"{"autosaveSeconds": 4, "theme": {"muted": "red"}}"#.utf8).write(to: file)
        let loaded = try ConfigLoader.load(
            explicitPath: file.path, environment: ["HOME": directory.path], settings: state)
        #expect(loaded.config.autosaveSeconds == 4, "the file wins over the synced value")
        #expect(loaded.config.syncDebounceSeconds == 9, "this device's own wins over everything")
        #expect(loaded.config.theme["accent"] == "cyan" && loaded.config.theme["muted"] == "red")
        #expect(loaded.config.pollIntervalSeconds == 30, "a value this build does not take is left out")
        #expect(loaded.warnings.contains { $0.contains("pollIntervalSeconds") })
        #expect(loaded.settingOrigins["theme.accent"] == .synced(device: "bbbbbbbbbbbbbbbb", hlc: HLC(millis: 10)))
        #expect(loaded.settingOrigins["syncDebounceSeconds"] == .here)
        #expect(loaded.settingOrigins["autosaveSeconds"] == nil && loaded.settingOrigins["theme.muted"] == nil)
    }
}
