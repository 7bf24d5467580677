import Foundation
import NotesCore
import Testing

@testable import NotesStore

@Suite struct NoteStoreConcurrencyTests {
    @Test func twoStoresOnOneDirectoryWritingFromManyThreadsLoseNothing() throws {
        let t = try TestStore()
        let second = try NoteStore(directory: t.directory, clock: { Date(timeIntervalSince1970: 1_700_000_000) })
        let stores = [t.store, second]
        let errors = Recorder<String>()
        let threads = 6
        let perThread = 25
        let shared = try t.store.create(title: "shared", body: "")
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let store = stores[thread % 2]
            for i in 0..<perThread {
                do {
                    let note = try store.create(
                        title: "t\(thread)-\(i)", body: "body \(thread) \(i)", tags: ["t\(thread)"])
                    if i % 5 == 0 { _ = try store.update(note.id) { $0.body += " edited" } }
                    _ = try store.update(shared.id) { $0.tags.append("t\(thread)-\(i)") }
                } catch {
                    errors.record("\(thread)/\(i): \(error)")
                }
            }
        }
        #expect(errors.count == 0)
        for store in stores {
            #expect(try store.count(.all) == threads * perThread + 1)
            #expect(try store.integrityCheck() == "ok")
        }
        let titles = Set(try second.list(ListRequest(section: .all, limit: 1000)).map(\.title))
        for thread in 0..<threads {
            for i in 0..<perThread { #expect(titles.contains("t\(thread)-\(i)")) }
        }
        // Every read-modify-write of the shared note kept the others' tags.
        #expect(try t.store.note(shared.id)?.tags.count == threads * perThread)
        #expect(try t.store.search("edited").hits.count == threads * ((perThread + 4) / 5))
        // Both processes share one clock: no two revisions carry the same stamp.
        let revisions = try t.store.history(shared.id)
        #expect(Set(revisions.map(\.hlc)).count == revisions.count)
    }
}
