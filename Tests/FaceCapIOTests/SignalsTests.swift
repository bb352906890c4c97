import FaceCapIO
import XCTest

#if canImport(Glibc)
import Glibc
#endif

final class SignalsTests: XCTestCase {
    override func tearDown() {
        Signals.restoreDefaults()
        _ = Signals.drain()
        StopSignals.reset()
    }

    func testSignalsArriveAsBytesOnThePipeAndHUPAsksToStop() throws {
        Signals.install()
        StopSignals.reset()
        _ = Signals.drain()
        let fd = Signals.descriptor
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(fcntl(fd, F_GETFL) & O_NONBLOCK, O_NONBLOCK, "draining must never block")
        XCTAssertEqual(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC)
        XCTAssertEqual(Signals.drain(), [], "an empty pipe drains to nothing, at once")

        raise(SIGWINCH)
        raise(SIGCONT)
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&ready, 1, 0), 1, "the pipe wakes a poll loop")
        XCTAssertEqual(Signals.drain(), [SIGWINCH, SIGCONT])
        XCTAssertEqual(StopSignals.received, 0, "a resize is not a stop request")

        raise(SIGHUP)
        raise(SIGTERM)
        XCTAssertEqual(Signals.drain(), [SIGHUP, SIGTERM])
        XCTAssertEqual(StopSignals.received, SIGHUP, "the first stop request is kept")
        XCTAssertEqual(Signals.descriptor, fd, "one pipe, created once")
    }

    func testAFullPipeNeverBlocksTheHandler() throws {
        Signals.install()
        _ = Signals.drain()
        // A pipe holds 64 KiB by default; far more signals than that must not hang the process.
        for _ in 0..<70_000 { raise(SIGWINCH) }
        let drained = Signals.drain()
        XCTAssertGreaterThan(drained.count, 0)
        XCTAssertLessThan(drained.count, 70_000, "bytes beyond the pipe's capacity were dropped, not waited for")
        XCTAssertTrue(drained.allSatisfy { $0 == SIGWINCH })
    }
}
