import TerminalUI
import Testing

@Suite struct InputEventTests {
    @Test func notationSpellsPlainAndNamedKeys() throws {
        let events = try #require(InputEvent.keys("jj<C-s><Esc><A-Left><S-Tab><F5><lt>x<PgDn><Enter>"))
        #expect(
            events == [
                .char("j"), .char("j"), .ctrl("s"), .key(.escape), .key(.left, modifiers: .alt),
                .key(.tab, modifiers: .shift), .key(.function(5)), .char("<"), .char("x"), .key(.pageDown),
                .key(.enter),
            ])
    }

    @Test func notationCombinesModifiers() throws {
        let events = try #require(InputEvent.keys("<C-A-Right><c-space><BS><Del>"))
        #expect(
            events == [
                .key(.right, modifiers: [.control, .alt]), .key(.character(" "), modifiers: .control),
                .key(.backspace), .key(.delete),
            ])
    }

    @Test func notationRejectsUnknownNames() {
        #expect(InputEvent.keys("<Nope>") == nil)
        #expect(InputEvent.keys("<F99>") == nil)
        #expect(InputEvent.keys("<C-s") == nil)
        #expect(InputEvent.keys("<>") == nil)
        #expect(InputEvent.keys("") == [])
    }

    @Test func mouseEventsKnowWhere() {
        #expect(InputEvent.Mouse.wheelDown(Point(x: 2, y: 3)).location == Point(x: 2, y: 3))
        #expect(InputEvent.typing("ab") == [.char("a"), .char("b")])
    }
}
