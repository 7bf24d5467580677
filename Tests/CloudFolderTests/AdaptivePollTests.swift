import CloudFolder
import Testing

/// A watcher with no change events (a bucket) polls around `pollIntervalSeconds`: faster for a
/// minute after activity, slower after ten idle minutes (ARCHITECTURE §4).
@Suite struct AdaptivePollTests {
    @Test func theIntervalFollowsActivity() {
        let poll = AdaptivePoll(base: 30)
        #expect(poll.interval(sinceActivity: nil) == 30, "a device that just started polls at the base")
        #expect(poll.interval(sinceActivity: 0) == 5)
        #expect(poll.interval(sinceActivity: 59.9) == 5)
        #expect(poll.interval(sinceActivity: 60) == 30)
        #expect(poll.interval(sinceActivity: 599) == 30)
        #expect(poll.interval(sinceActivity: 600) == 120)
        // A short base stays at least 2 s when busy, never longer than the base itself.
        #expect(AdaptivePoll(base: 6).interval(sinceActivity: 1) == 2)
        #expect(AdaptivePoll(base: 1).interval(sinceActivity: 1) == 1)
    }

    @Test func aPollingWatcherLooksFasterRightAfterActivity() throws {
        let watcher = try FolderWatcher.pollingOnly(pollInterval: 30) {}
        defer { watcher.stop() }
        #expect(watcher.currentInterval == 30)
        watcher.noteActivity()
        #expect(watcher.currentInterval == 5)
    }

    /// Requests an idle bucket device makes per hour at the default 30 s base: one fetch per
    /// look (20 requests measured by S3RequestCountTests) at a look every 120 s once idle.
    @Test func anIdleDeviceLooksAQuarterAsOften() {
        let poll = AdaptivePoll(base: 30)
        let looksPerHour = 3600 / poll.interval(sinceActivity: 3600)
        #expect(looksPerHour == 30, "against 120 looks at a fixed 30 s")
    }
}
