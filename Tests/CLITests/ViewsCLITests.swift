import Foundation
import NotesTestSupport
import Testing

/// Saved searches (issue 25, "smart views"): `view save` on one device, `views` and `view NAME`
/// on another after sync, printing exactly what `search` prints; `view rm` everywhere.
@Suite("views: saved searches that sync")
struct ViewsCLITests {
    @Test("a view saved on A runs on B after sync, as search prints it; removed on B, it is gone on A")
    func savedOnARunsOnB() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (_, a, b) = try runner.devicesSharingACloudFolder()
        try SyncedSettingsCLITests.ok(runner, a, "add", "Plan", "--body", "ship it\n- [ ] review the draft\n")
        try SyncedSettingsCLITests.ok(runner, a, "add", "Done plan", "--body", "- [x] all done\n")
        try SyncedSettingsCLITests.ok(runner, a, "tag", "Plan", "work")
        try SyncedSettingsCLITests.ok(runner, a, "tag", "Done plan", "work")
        let saved = try SyncedSettingsCLITests.ok(runner, a, "view", "save", "open work", "tag:work", "has:todo")
        #expect(saved == "saved view open work: tag:work has:todo\n")
        try SyncedSettingsCLITests.ok(runner, a, "view", "save", "closed", "tag:work", "-has:todo")
        try SyncedSettingsCLITests.ok(runner, a, "sync")
        try SyncedSettingsCLITests.ok(runner, b, "sync")
        let listed = try SyncedSettingsCLITests.ok(runner, b, "views")
        #expect(listed == "closed     tag:work -has:todo\nopen work  tag:work has:todo\n", "\(listed)")
        let open = try SyncedSettingsCLITests.ok(runner, b, "view", "open work", "--json")
        #expect(open == (try SyncedSettingsCLITests.ok(runner, b, "search", "tag:work", "has:todo", "--json")))
        #expect(open.contains("\"Plan\"") && !open.contains("Done plan"), "\(open)")
        let closed = try SyncedSettingsCLITests.ok(runner, b, "view", "closed")
        #expect(closed.contains("Done plan") && !closed.contains("review the draft"), "\(closed)")

        try SyncedSettingsCLITests.ok(runner, b, "view", "rm", "closed")
        try SyncedSettingsCLITests.ok(runner, b, "sync")
        try SyncedSettingsCLITests.ok(runner, a, "sync")
        let json = try runner.cn(at: a, "views", "--json")
        let views = try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]]
        #expect(views?.count == 1)
        #expect(views?.first?["name"] as? String == "open work")
        #expect(views?.first?["query"] as? String == "tag:work has:todo")
        #expect(views?.first?["notify"] as? Bool == false)
    }

    @Test("view notify marks a view on every device; views shows the mark; rm takes it away with the view")
    func notifyMarkSyncs() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (_, a, b) = try runner.devicesSharingACloudFolder()
        try SyncedSettingsCLITests.ok(runner, a, "view", "save", "work", "tag:work")
        try SyncedSettingsCLITests.ok(runner, a, "view", "save", "home", "tag:home")
        let marked = try SyncedSettingsCLITests.ok(runner, a, "view", "notify", "work")
        #expect(marked.contains("view work notifies"), "\(marked)")
        try SyncedSettingsCLITests.ok(runner, a, "sync")
        try SyncedSettingsCLITests.ok(runner, b, "sync")
        #expect(try SyncedSettingsCLITests.ok(runner, b, "views") == "home  tag:home\nwork  tag:work  (notify)\n")
        let json = try runner.cn(at: b, "views", "--json")
        let views = try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]]
        #expect(views?.map { $0["notify"] as? Bool } == [false, true])
        // Off on B, then the view removed on A: no mark is left behind for a view of that name.
        try SyncedSettingsCLITests.ok(runner, b, "view", "notify", "work", "--off")
        #expect(try SyncedSettingsCLITests.ok(runner, b, "views") == "home  tag:home\nwork  tag:work\n")
        try SyncedSettingsCLITests.ok(runner, b, "view", "notify", "work")
        try SyncedSettingsCLITests.ok(runner, b, "sync")
        try SyncedSettingsCLITests.ok(runner, a, "sync")
        try SyncedSettingsCLITests.ok(runner, a, "view", "rm", "work")
        try SyncedSettingsCLITests.ok(runner, a, "view", "save", "work", "tag:later")
        #expect(try SyncedSettingsCLITests.ok(runner, a, "views") == "home  tag:home\nwork  tag:later\n")
        let unknown = try runner.cn(at: a, "view", "notify", "nothing-here")
        #expect(unknown.status == 1 && unknown.stderr.contains("no view named \"nothing-here\""))
    }

    @Test("a view's name that is a command, an unknown view and an empty query are one line, exit 1")
    func badNames() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let reserved = try runner.cn("view", "save", "rm", "tag:x")
        #expect(reserved.status == 1 && reserved.stderr.contains("\"rm\" is a command of `cloudnotes view`"))
        let unknown = try runner.cn("view", "nothing-here")
        #expect(unknown.status == 1 && unknown.stderr.contains("no view named \"nothing-here\""), "\(unknown.stderr)")
        let removeUnknown = try runner.cn("view", "rm", "nothing-here")
        #expect(removeUnknown.status == 1)
        let empty = try runner.cn("view", "save", "blank")
        #expect(empty.status != 0 && empty.stderr.contains("<query>"), "\(empty.stderr)")
        #expect(try runner.cn("views").stdout.isEmpty)
    }
}
