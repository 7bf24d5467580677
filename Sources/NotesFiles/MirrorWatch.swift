/// Runs a `MirrorKeeper` on a clock: a tick every `interval`, so a change on either side
/// reaches the other within about `interval` plus a pass (`files --watch`, `sync --watch`). The
/// clock is injected; tests step it.
public struct MirrorWatch: Sendable {
    public var interval: Duration

    public init(interval: Duration = .milliseconds(250)) {
        self.interval = interval
    }

    /// Ticks `keeper` until the task is cancelled, then makes its last pass; each tick that did
    /// something, failed (retried next tick) or found the folder kept elsewhere goes to `report`.
    public func run(
        keeper: MirrorKeeper, clock: any Clock<Duration>, report: (MirrorKeeper.Step) -> Void
    ) async {
        var elapsed = Duration.zero
        while !Task.isCancelled {
            let step = keeper.tick(elapsed: elapsed)
            if case .quiet = step {} else { report(step) }
            do {
                try await clock.sleep(for: interval)
            } catch {
                break  // cancelled
            }
            elapsed = interval
        }
        let last = keeper.finish()
        if case .quiet = last {} else { report(last) }
    }
}
