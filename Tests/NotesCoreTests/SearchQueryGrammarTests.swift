import Foundation
import NotesCore
import Testing

/// OR, groups, the new operators and hints (issue 25, "Saved searches"): what a typed query means.
struct SearchQueryGrammarTests {
    @Test func orBindsLooserThanWordsSideBySide() {
        let query = SearchQuery(parsing: "budget review OR roadmap")
        #expect(query.terms.isEmpty)
        #expect(query.conditions == [.any([.all([.term("budget"), .term("review")]), .term("roadmap")])])
        // Lowercase "or" and "ORacle" are words.
        #expect(SearchQuery(parsing: "this or that ORacle").terms == ["this", "or", "that", "ORacle"])
    }

    @Test func groupsNestAndCombineWithTheOtherWords() {
        let query = SearchQuery(parsing: "tag:work (budget OR \"road map\") -draft")
        #expect(query.tags == ["work"] && query.excludedTerms == ["draft"])
        #expect(query.conditions == [.any([.term("budget"), .term("road map")])])
        #expect(
            SearchQuery(parsing: "((a OR b) c) OR d").conditions
                == [.any([.all([.any([.term("a"), .term("b")]), .term("c")]), .term("d")])])
        // A group without OR is the same as its words.
        #expect(SearchQuery(parsing: "(a b) c").terms == ["a", "b", "c"])
    }

    @Test func notAppliesToWordsOperatorsAndGroups() {
        let query = SearchQuery(parsing: "-(a OR tag:x) -has:attachment -created:2025")
        #expect(
            query.conditions == [
                .not(.any([.term("a"), .tag("x")])), .not(.attachment),
                .not(.date(SearchDateFilter(field: .created, comparison: .within, bound: .year(2025)))),
            ])
        #expect(
            SearchQuery(parsing: "(a OR -b) -has:todo").conditions == [.any([.term("a"), .not(.term("b"))])])
        #expect(SearchQuery(parsing: "(a OR -b) -has:todo").openTasks == false)
    }

    @Test func whatIsBeingTypedNeverFails() {
        // An unclosed group closes at the end; a dangling OR is ignored; `)` outside a group is a letter.
        #expect(SearchQuery(parsing: "(a OR b").conditions == [.any([.term("a"), .term("b")])])
        #expect(SearchQuery(parsing: "a OR").terms == ["a"])
        #expect(SearchQuery(parsing: "OR a").terms == ["a"])
        #expect(SearchQuery(parsing: "f(x) :) ()").terms == ["f(x)", ":)"])
        #expect(SearchQuery(parsing: "(").isEmpty && SearchQuery(parsing: "()").isEmpty)
    }

    @Test func newOperators() {
        let query = SearchQuery(parsing: #"title:plan has:attachment has:conflict in:"Work stuff" sort:TITLE"#)
        #expect(query.conditions == [.title("plan"), .attachment, .conflict])
        #expect(query.notebook == "Work stuff")
        #expect(query.sort == .title && query.hints.isEmpty && query.terms.isEmpty)
        #expect(SearchQuery(parsing: "sort:created").sort == .created && SearchQuery(parsing: "sort:created").isEmpty)
        #expect(SearchQuery(parsing: "has:todo").openTasks == true)
    }

    @Test func operatorLikeWordsAreSearchedAndHinted() {
        let typo = SearchQuery(parsing: "crated:2024 modifed:today tga:x")
        #expect(typo.terms == ["crated:2024", "modifed:today", "tga:x"])
        #expect(
            typo.hints.map(\.line) == [
                "crated:2024 is searched as words: did you mean created:?",
                "modifed:today is searched as words: did you mean modified:?",
                "tga:x is searched as words: did you mean tag:?",
            ])
        #expect(
            SearchQuery(parsing: "sort:size").hints.map(\.line) == [
                "sort:size is searched as words: sort: takes created, modified or title"
            ])
        #expect(
            SearchQuery(parsing: "has:pdf").hints.first?.line.contains("has: takes attachment, conflict or todo")
                == true)
        #expect(
            SearchQuery(parsing: "created:2025-13").hints.first?.line.hasPrefix(
                "created:2025-13 is searched as words: created: takes a date") == true)
        // Words with a colon that are near no operator stay quiet.
        #expect(SearchQuery(parsing: "https://example.com 10:30 note:x re:meeting").hints.isEmpty)
    }
}
