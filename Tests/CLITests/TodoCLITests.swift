import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes todo` and `todo done` (issue 25, "Tasks across notes").
@Suite("todo: open tasks across notes")
struct TodoCLITests {
    @Test("lists the open tasks of the matching notes, ticks one, and the tick syncs like an edit")
    func listAndTick() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (_, a, b) = try runner.devicesSharingACloudFolder()
        #expect(
            try runner.cn(
                at: a, "add", "Groceries", "--body", "- [ ] oat milk\n- [x] bread\n- [ ] tea", "--tag", "home"
            )
            .status == 0)
        #expect(
            try runner.cn(at: a, "add", "Work", "--body", "intro\n\n* [ ] send the report", "--tag", "work").status == 0
        )
        #expect(try runner.cn(at: a, "add", "Plain", "--body", "no tasks [ ] here").status == 0)
        let all = try runner.cn(at: a, "todo", "--json")
        #expect(all.status == 0, "\(all.stderr)")
        let items = try #require(try JSONSerialization.jsonObject(with: all.stdoutData) as? [[String: Any]])
        let seen = Set(
            items.map { "\($0["title"] as? String ?? ""):\($0["line"] as? Int ?? 0):\($0["text"] as? String ?? "")" })
        #expect(seen == ["Groceries:1:oat milk", "Groceries:3:tea", "Work:3:send the report"], "\(seen)")
        let work = try runner.cn(at: a, "todo", "tag:work")
        #expect(
            work.stdout.split(separator: "\n").count == 1 && work.stdout.contains("Work:3  send the report"),
            "\(work.stdout)")

        let done = try runner.cn(at: a, "todo", "done", "Groceries", "3")
        #expect(done.status == 0, "\(done.stderr)")
        #expect(try runner.cn(at: a, "show", "Groceries").stdout == "- [ ] oat milk\n- [x] bread\n- [x] tea")
        for (line, message) in [("2", "already done"), ("9", "not an open task")] {
            let refused = try runner.cn(at: a, "todo", "done", "Groceries", line)
            #expect(refused.status == 1 && refused.stderr.contains(message), "\(refused.stderr)")
        }
        #expect(try runner.cn(at: a, "sync").status == 0)
        #expect(try runner.cn(at: b, "sync").status == 0)
        let onB = try runner.cn(at: b, "todo", "home")
        #expect(onB.stdout.contains("Groceries:1  oat milk") && !onB.stdout.contains("tea"), "\(onB.stdout)")
    }
}
