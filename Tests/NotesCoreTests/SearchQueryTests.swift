import Testing

@testable import NotesCore

@Suite struct SearchQueryTests {
    @Test func wordsAreTermsThatMustAllMatch() {
        #expect(SearchQuery(parsing: "budget  Review\tQ3") == SearchQuery(terms: ["budget", "Review", "Q3"]))
    }

    @Test func emptyAndWhitespaceInputSelectEverything() {
        for text in ["", " ", " \t\n  ", "\"\"", "-"] {
            let query = SearchQuery(parsing: text)
            #expect(query.isEmpty, "\(text.debugDescription) gave \(query)")
        }
    }

    @Test func phrasesKeepTheirSpacesEvenWhenUnclosed() {
        #expect(SearchQuery(parsing: #"plan "crème brûlée" x"#) == SearchQuery(terms: ["plan", "crème brûlée", "x"]))
        #expect(SearchQuery(parsing: #"a "b c"#) == SearchQuery(terms: ["a", "b c"]))
        #expect(SearchQuery(parsing: #""tag:x is:fav""#) == SearchQuery(terms: ["tag:x is:fav"]))
    }

    @Test func aLeadingDashExcludesAWordOrAPhrase() {
        #expect(
            SearchQuery(parsing: #"todo -done -"not now""#)
                == SearchQuery(terms: ["todo"], excludedTerms: ["done", "not now"]))
        // A dash inside a word is part of it.
        #expect(SearchQuery(parsing: "e-mail") == SearchQuery(terms: ["e-mail"]))
    }

    @Test func aLoneDashIsAnExclusionBeingTypedAndIsIgnored() {
        #expect(SearchQuery(parsing: "meeting -") == SearchQuery(terms: ["meeting"]))
        #expect(SearchQuery(parsing: "- meeting") == SearchQuery(terms: ["meeting"]))
        #expect(SearchQuery(parsing: #""-""#) == SearchQuery(terms: ["-"]))
    }

    @Test func filters() {
        #expect(SearchQuery(parsing: "tag:work -tag:Home") == SearchQuery(tags: ["work"], excludedTags: ["Home"]))
        #expect(SearchQuery(parsing: "IS:FAV").favoritesOnly)
        for word in ["fav", "favorite", "favourite", "starred"] {
            #expect(SearchQuery(parsing: "is:\(word)") == SearchQuery(favoritesOnly: true))
        }
        #expect(SearchQuery(parsing: "in:work-2 report") == SearchQuery(terms: ["report"], notebook: "work-2"))
        // A notebook as typed: the store resolves a name or an id in any case (NoteStore.searchZones).
        #expect(SearchQuery(parsing: "IN:Work") == SearchQuery(notebook: "Work"))
        #expect(SearchQuery(parsing: "Tag:日本") == SearchQuery(tags: ["日本"]))
    }

    @Test func anythingElseWithAColonIsAPlainTerm() {
        let other = SearchQuery(parsing: "foo:bar 10:30 tag: in: is:other")
        #expect(other.terms == ["foo:bar", "10:30", "tag:", "in:", "is:other"])
        #expect(other.hints.map(\.line) == ["is:other is searched as words: is: takes fav"])
        var negatedFilters = SearchQuery(excludedTerms: ["foo:bar"])
        negatedFilters.excludesFavorites = true
        negatedFilters.excludedNotebooks = ["Work"]
        #expect(SearchQuery(parsing: "-is:fav -in:Work -foo:bar") == negatedFilters)
        #expect(!SearchQuery(parsing: "-is:fav").isEmpty && !SearchQuery(parsing: "-in:notes").isEmpty)
        #expect(SearchQuery(parsing: "https://example.com") == SearchQuery(terms: ["https://example.com"]))
    }

    @Test func queriesWithOnlyFiltersOrExclusionsAreNotEmpty() {
        #expect(!SearchQuery(parsing: "-x").isEmpty)
        #expect(!SearchQuery(parsing: "is:fav").isEmpty)
        #expect(!SearchQuery(parsing: "-tag:x").isEmpty)
        #expect(!SearchQuery(parsing: "in:notes").isEmpty)
    }
}
