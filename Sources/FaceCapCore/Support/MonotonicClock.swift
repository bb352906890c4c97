#if canImport(Glibc)
import Glibc
#endif

/// A clock that only moves forward, in seconds from any origin: what paces and times the program (clip replay,
/// the plain front end's lines, event times, a terminal update's cost). The program's clock is `SystemClock`;
/// a test gives one that moves only when the code under test sleeps or the test says so.
public protocol MonotonicClock {
    /// Seconds now (any origin).
    func now() -> Double
    /// Waits `seconds` (≤ 0 returns at once).
    func sleep(_ seconds: Double)
}

/// CLOCK_MONOTONIC and nanosleep: unaffected by changes of the wall clock. The one monotonic clock of the program.
public struct SystemClock: MonotonicClock, Sendable {
    public init() {}

    public func now() -> Double { POSIX.clockSeconds(CLOCK_MONOTONIC) }

    public func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        // Interrupted by a signal: the rest of the wait, not all of it again.
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}
