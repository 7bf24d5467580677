import CloudFolder
import Foundation
import NotesCore
import NotesStore
import Testing

@testable import NotesSync

/// A fetch longer than one store transaction: groups of `fetchLimit` log files,
/// the next one read while the previous is applied.
@Suite struct FetchGroupTests {
    @Test func aFetchOfSeveralGroupsAppliesEveryLogFileOnce() async throws {
        for folder in [TestFolder.memory().0, try TestFolder.disk()] {
            let a = try TestDevice("a", folder: folder)
            let files = SyncEngine.fetchLimit.batches * 2 + 7
            var ids: [UUID] = []
            for i in 0..<files {
                ids.append(try a.store.create(title: "log file \(i)", body: "body \(i)\n").id)
                #expect(await a.sync().sent.batches == 1)
            }
            let b = try TestDevice("b", folder: folder)
            let fetched = await b.sync()
            #expect(fetched.fetched.received == files)
            #expect(Set(fetched.fetched.changed) == Set(ids))
            #expect(try b.store.count(.all) == files)
            #expect(try b.snapshot() == a.snapshot())
            #expect(try b.store.search("body", limit: 1000).hits.count == files)
            #expect(
                try b.store.search("file 13").hits.count == (0..<files).filter { "log file \($0)".contains("13") }.count
            )
            // Nothing is read twice: a second fetch moves nothing.
            #expect(await b.sync().fetched.received == 0)
        }
    }
}
