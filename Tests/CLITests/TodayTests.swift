import Foundation
import Testing

@Suite struct TodayTests {
    /// A fixed "now" (CLOUDNOTES_NOW) in UTC (the runner sets no TZ).
    let morning = ["CLOUDNOTES_NOW": "2026-11-24T09:05:00Z"]

    @Test func todayMakesTheDaysNoteFromTheDailyTemplateOnceAndFindsItAfter() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        // Without a template: an empty note titled with the day.
        let bare = try cli.cn("today", environment: ["CLOUDNOTES_NOW": "2026-11-23T23:59:00Z"])
        #expect(bare.status == 0, "\(bare.stderr)")
        let bareID = bare.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try cli.note(bareID)["title"] as? String == "2026-11-23")
        _ = try cli.add(
            "Daily", body: "# {{title}}\nStarted {{date}} at {{time}}\n- [ ] {{unknown}}\n", "--notebook", "templates",
            "--tag", "journal")
        let first = try cli.cn("today", environment: morning)
        let id = first.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let note = try cli.note(id)
        #expect(note["title"] as? String == "2026-11-24")
        #expect(note["body"] as? String == "# 2026-11-24\nStarted 2026-11-24 at 09:05\n- [ ] {{unknown}}\n")
        #expect(note["tags"] as? [String] == ["journal"])
        #expect(note["notebook"] as? String == "notes")
        let again = try cli.cn("today", environment: ["CLOUDNOTES_NOW": "2026-11-24T18:00:00Z"])
        #expect(again.stdout == first.stdout, "the same day's note, not a second one")
        let missing = try cli.cn(
            "today", "--template", "Weekly", environment: ["CLOUDNOTES_NOW": "2026-11-25T08:00:00Z"])
        #expect(missing.status == 1 && missing.stderr.contains("no template named \"Weekly\""))
    }

    @Test func addFromATemplateFillsPlaceholdersAndAppendsTheBody() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        _ = try cli.add("Meeting {{date}}", body: "## {{title}} ({{time}})\n", "--notebook", "templates")
        let missing = try cli.cn("add", "Standup", "--template", "Retro", environment: morning)
        #expect(missing.status == 1 && missing.stderr.contains("no template named \"Retro\""))
        // A template is named by its title, folded (case and accents do not matter).
        let folded = try cli.cn("add", "Standup", "--template", "MEETING {{DATE}}", environment: morning)
        #expect(
            try cli.note(folded.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["title"] as? String == "Standup"
        )
        let made = try cli.cn(
            "add", "--template", "Meeting {{date}}", "--body", "agenda", "--fav", environment: morning)
        #expect(made.status == 0, "\(made.stderr)")
        let note = try cli.note(made.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(note["title"] as? String == "Meeting 2026-11-24")
        #expect(note["body"] as? String == "## Meeting 2026-11-24 (09:05)\nagenda")
        #expect(note["isFavorite"] as? Bool == true)
        // `new` is `add` by another name.
        let renamed = try cli.cn("new", "Retro", "--template", "Meeting {{date}}", environment: morning)
        #expect(renamed.status == 0, "\(renamed.stderr)")
        let retro = try cli.note(renamed.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(retro["title"] as? String == "Retro")
        #expect(retro["body"] as? String == "## Retro (09:05)\n")
    }
}
