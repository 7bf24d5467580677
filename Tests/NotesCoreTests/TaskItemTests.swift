import NotesCore
import Testing

/// Markdown task-list items as GitHub and Obsidian read them (issue 25, "Tasks across notes").
@Suite("Task items in a note's body")
struct TaskItemTests {
    static let body = """
        # Shopping
        - [ ] oat milk
        * [x] bread
          + [X] eggs
        \t- [ ] tea\r
        - [ ]
        - [] not a box
        -[ ] no space
        - [ ]no space after
        1. [ ] numbered lists are not task lists here
        ```
        - [ ] inside a fence
        ```
        ~~~swift
        - [ ] inside another
        ~~~
        - [ ] after the fences
        """

    @Test("open and done boxes with any bullet and indentation; fences and near misses are not tasks")
    func parsing() {
        let all = TaskItem.all(in: Self.body)
        #expect(
            all == [
                TaskItem(line: 2, text: "oat milk", isDone: false), TaskItem(line: 3, text: "bread", isDone: true),
                TaskItem(line: 4, text: "eggs", isDone: true), TaskItem(line: 5, text: "tea", isDone: false),
                TaskItem(line: 6, text: "", isDone: false), TaskItem(line: 17, text: "after the fences", isDone: false),
            ])
        #expect(TaskItem.open(in: Self.body).map(\.line) == [2, 5, 6, 17])
    }

    @Test("ticking changes that box only and leaves every other byte as it was")
    func ticking() throws {
        let ticked = try #require(TaskItem.ticking(line: 5, in: Self.body))
        #expect(ticked == Self.body.replacingOccurrences(of: "\t- [ ] tea", with: "\t- [x] tea"))
        #expect(TaskItem.open(in: ticked).map(\.line) == [2, 6, 17])
        #expect(TaskItem.ticking(line: 3, in: Self.body) == nil, "already done")
        #expect(TaskItem.ticking(line: 12, in: Self.body) == nil, "inside a fence")
        #expect(TaskItem.ticking(line: 0, in: Self.body) == nil)
        #expect(TaskItem.ticking(line: 99, in: Self.body) == nil)
    }

    @Test("setting a done task open again changes its box only, whatever the case of its x")
    func openingAgain() throws {
        let body = "- [X] upper\r\n* [x] lower\r\n- [ ] open"
        let opened = try #require(TaskItem.setting(line: 1, done: false, in: body))
        #expect(opened == "- [ ] upper\r\n* [x] lower\r\n- [ ] open")
        let both = try #require(TaskItem.setting(line: 2, done: false, in: opened))
        #expect(TaskItem.open(in: both).map(\.line) == [1, 2, 3])
        #expect(TaskItem.setting(line: 3, done: false, in: body) == nil, "already open")
        #expect(TaskItem.setting(line: 1, done: true, in: body) == nil, "already done")
        // Round trip: ticking then opening gives back every byte.
        let ticked = try #require(TaskItem.setting(line: 3, done: true, in: body))
        #expect(TaskItem.setting(line: 3, done: false, in: ticked) == body)
    }
}
