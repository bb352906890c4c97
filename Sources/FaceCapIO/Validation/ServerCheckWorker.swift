import Dispatch
import FaceCapCore

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
    public var descriptor: Int32 { wakeUp.descriptor }
    private let wakeUp: WakeUpPipe
    private let probe: any ServerProbe
    private let queue = DispatchQueue(label: "facecap.servercheck")
    private let state = PthreadLocked(State())

    private struct State {
        var answers: [ServerCheck] = []
        var current: Cancellation?
        var closed = false
    }

    public init(probe: any ServerProbe) throws(ValidationWorkerError) {
        wakeUp = try WakeUpPipe()
        self.probe = probe
    }

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
            wakeUp.wake()
        }
    }

    /// The answers that arrived since the last call; never blocks.
    public func drain() -> [ServerCheck] {
        wakeUp.drain()
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
        wakeUp.close()
    }
}
