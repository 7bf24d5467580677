import Synchronization

/// A gate that lets one piece of work in at a time and turns the others away (not queued):
/// the notes folder's passes, which a timer asks for more often than a slow one ends.
final class OneAtATime: Sendable {
    private let busy = Atomic(false)

    /// True when the caller may go in (and must `leave` after); false while another is in.
    func enter() -> Bool {
        busy.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
    }

    func leave() {
        busy.store(false, ordering: .sequentiallyConsistent)
    }
}
