import Dispatch
import FaceCapCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A checker that can be asked, before any photo exists, whether an upload would get through (HTTPValidator's
/// pre-flight request).
public protocol ServerProbe: AnyObject, Sendable {
    /// Blocks until the server answered or could not be reached; returns promptly once `cancellation` is
    /// cancelled (the answer is then thrown away).
    func preflight(cancellation: Cancellation) -> ServerCheck
}

/// Runs the pre-flight off the UI thread, so the tutorial stays responsive while a slow server is asked, and
/// hands the answer to the run loop through a wake-up pipe (as `ValidationWorker` does for photos).
public final class ServerCheckWorker: Sendable {
    /// Readable when an answer arrived; valid until `shutdown()`.
    public let descriptor: Int32
    private let writeEnd: Int32
    private let probe: any ServerProbe
    private let queue = DispatchQueue(label: "facecap.servercheck")
    private let state = Mutex(State())
    private let fdsClosed = Atomic<Bool>(false)

    private struct State {
        var answers: [ServerCheck] = []
        var current: Cancellation?
        var closed = false
    }

    public init(probe: any ServerProbe) throws(ValidationWorkerError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ValidationWorkerError(errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        descriptor = fds[0]
        writeEnd = fds[1]
        self.probe = probe
    }

    deinit { closePipe() }

    /// Asks the server (again); an earlier question still in flight is abandoned.
    public func start() {
        let cancellation = Cancellation()
        let started = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.current?.cancel()
            state.current = cancellation
            return true
        }
        guard started else { return }
        queue.async { [self] in
            guard !cancellation.isCancelled else { return }
            let answer = probe.preflight(cancellation: cancellation)
            let accepted = state.withLock { state -> Bool in
                guard !cancellation.isCancelled, !state.closed else { return false }
                state.answers.append(answer)
                state.current = nil
                return true
            }
            guard accepted else { return }
            var byte: UInt8 = 1
            while write(writeEnd, &byte, 1) < 0, errno == EINTR {}
        }
    }

    /// The answers that arrived since the last call; never blocks.
    public func drain() -> [ServerCheck] {
        var buffer = [UInt8](repeating: 0, count: 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n > 0 { continue }
            if n < 0, errno == EINTR { continue }
            break
        }
        return state.withLock { state in
            defer { state.answers.removeAll() }
            return state.answers
        }
    }

    /// Cancels a question in flight (libcurl lets go within about a second), waits for it and closes the pipe.
    public func shutdown() {
        let wasOpen = state.withLock { state -> Bool in
            state.current?.cancel()
            state.current = nil
            defer { state.closed = true }
            return !state.closed
        }
        guard wasOpen else { return }
        queue.sync {}
        closePipe()
    }

    private func closePipe() {
        guard !fdsClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = close(descriptor)
        _ = close(writeEnd)
    }
}
