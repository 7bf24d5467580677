@preconcurrency import Glibc

extension Machine {
    /// Standard output flushed line by line, so a run's figures show as they come (in a log
    /// too) and survive an interrupted run.
    static func lineBufferedOutput() { setvbuf(stdout, nil, _IOLBF, 0) }
}
