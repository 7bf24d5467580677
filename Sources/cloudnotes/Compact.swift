import ArgumentParser
import Foundation
import NotesStore

struct Compact: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Give back the disk space the store no longer needs.",
        discussion: """
            Stores made before 0.26.0 keep a second copy of each note's body in the note's latest \
            revision until the note is next written: compact cuts those copies, then rebuilds the \
            database file (SQLite's VACUUM) so the room is given back, and prints the store's size \
            before and after. That also gives back the room of the folded copy of every note's \
            text that stores made by 0.28.0 or earlier held, which this version drops when it \
            first opens them. It needs about the store's size free on the disk while it runs; if \
            it cannot finish (a full disk), the store is left as it was. Notes, history and sync \
            are not changed.
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let done = try Context(global).openStore().compact()
        Output.line(
            "store: \(Format.bytes(done.bytesBefore)) -> \(Format.bytes(done.bytesAfter))"
                + (done.headsCut > 0 ? " (\(done.headsCut) note(s) no longer stored twice)" : ""))
    }
}
