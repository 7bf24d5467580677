import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStore

/// A note's search text made with one folder for many notes (a first sync's or an import's
/// batch, the store's writer) is the text each note gets alone: its folded title, and the keys
/// of its title and of its folded body and tags (`foldedBody`).
@Suite struct IndexedTextTests {
    @Test func aFolderSharedNoteAfterNoteGivesEachNoteItsOwnText() {
        let seed = SeededRandom.seed(default: 4242)
        var random = SeededRandom(seed: seed)
        let alphabet = Array("abcXYZ  \n.#ÉéüßẞﬁİΣσς東京会議🎉🔥👍🏽한글ガ\u{301}\u{FE0F}".unicodeScalars)
        var scratch = KeySet()
        // A table made early, as in a long batch.
        var folder = TextFolding.Folder(tableAfter: 8)
        for round in 0..<1_500 {
            let title = random.string(from: alphabet, count: random.below(20))
            let body = random.string(from: alphabet, count: random.below(200))
            let tags = (0..<random.below(3)).map { _ in random.string(from: alphabet, count: 1 + random.below(6)) }
            let shared = IndexedText(title: title, body: body, tags: tags, scratch: &scratch, folder: &folder)
            // The note alone, as before: the title's own fold, the body's and tags' as a search reads them.
            var alone = KeySet()
            let foldedTitle = TextFolding.foldedUTF8(title)
            foldedTitle.withUnsafeBufferPointer { bytes in
                SearchKeys.collect(bytes, space: SearchKeys.titleSpace, into: &alone)
                SearchKeys.collect(bytes, space: 0, into: &alone)
            }
            IndexedText.foldedBody(body, tags: tags).withUnsafeBufferPointer {
                SearchKeys.collect($0, space: 0, into: &alone)
            }
            let context = "seed \(seed) round \(round): \(title.debugDescription) \(body.debugDescription) \(tags)"
            #expect(shared.title == foldedTitle, "\(context)")
            #expect(Set(shared.keys) == Set(alone.keys), "\(context)")
            #expect(shared.keys.count == Set(shared.keys).count, "\(context)")
        }
    }
}
