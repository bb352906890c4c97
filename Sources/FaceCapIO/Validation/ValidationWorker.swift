import Dispatch
import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Runs one photo check at a time off the UI thread and hands the outcomes to the run loop.
///
/// The run loop polls `descriptor` (readable when something arrived) beside the camera and the
/// terminal, then calls `drain()`: progress first, then exactly one final outcome per `start`. Only
/// Sendable values cross between the threads (the photo, the request, the outcomes); the queue of
/// outcomes is behind a mutex and the pipe carries nothing but wake-ups.
///
/// ```swift
/// let worker = try ValidationWorker(checker: checker)
/// worker.start(photo: photo, request: ValidationRequest(attempt: 1, isFinal: false))
/// // poll([worker.descriptor, …]) → for outcome in worker.drain() { flow.handle(…) }
/// worker.shutdown()
/// ```
public final class ValidationWorker: Sendable {
    /// The read end of the wake-up pipe (non-blocking, close-on-exec); valid until `shutdown()`.
    public var descriptor: Int32 { wakeUp.descriptor }
    private let wakeUp: WakeUpPipe
    private let checker: any PhotoChecker
    private let queue = DispatchQueue(label: "facecap.validation")
    private let state = PthreadLocked(State())

    private struct State {
        var pending: [ValidationOutcome] = []
        var busy = false
        /// Bumped by every start and cancel, so an abandoned check's late answers are dropped.
        var generation = 0
        var current: Cancellation?
        var closed = false
    }

    /// Sets up the wake-up pipe; fails only when the process is out of file descriptors.
    public init(checker: any PhotoChecker) throws(ValidationWorkerError) {
        wakeUp = try WakeUpPipe()
        self.checker = checker
    }

    /// Whether a check is running (started and not yet answered, cancelled or drained).
    public var isBusy: Bool { state.withLock { $0.busy } }

    /// Starts checking `photo`; false (and nothing starts) while another check is running or after
    /// `shutdown()`.
    @discardableResult
    public func start(photo: CapturedPhoto, request: ValidationRequest) -> Bool {
        let cancellation = Cancellation()
        let generation: Int? = state.withLock { state in
            guard !state.busy, !state.closed else { return nil }
            state.busy = true
            state.generation += 1
            state.current = cancellation
            return state.generation
        }
        guard let generation else { return false }
        queue.async { [self] in
            guard !cancellation.isCancelled else { return }
            let outcome = checker.check(photo, request: request, cancellation: cancellation) { fraction in
                post(.progress(fraction), generation: generation, final: false)
            }
            post(outcome, generation: generation, final: true)
        }
        return true
    }

    /// Everything that arrived since the last call, in order; never blocks.
    public func drain() -> [ValidationOutcome] {
        wakeUp.drain()
        return state.withLock { state in
            let taken = state.pending
            state.pending.removeAll()
            return taken
        }
    }

    /// Abandons the running check, if any: an HTTP upload is aborted within about a second (libcurl's
    /// progress callback), and nothing more arrives from it.
    public func cancel() {
        state.withLock { state in
            state.current?.cancel()
            state.current = nil
            state.generation += 1
            state.busy = false
            state.pending.removeAll()
        }
    }

    /// Cancels the running check, waits for its thread to let go and closes the pipe. Idempotent.
    public func shutdown() {
        let wasOpen = state.withLock { state in
            state.current?.cancel()
            state.current = nil
            state.generation += 1
            state.busy = false
            defer { state.closed = true }
            return !state.closed
        }
        guard wasOpen else { return }
        queue.sync {}
        wakeUp.close()
    }

    private func post(_ outcome: ValidationOutcome, generation: Int, final: Bool) {
        let accepted = state.withLock { state -> Bool in
            guard state.generation == generation, !state.closed else { return false }
            if case .progress = outcome, case .progress? = state.pending.last {
                // Unread progress is superseded by newer progress: the run loop only needs the latest.
                state.pending[state.pending.count - 1] = outcome
            } else {
                state.pending.append(outcome)
            }
            if final {
                state.busy = false
                state.current = nil
            }
            return true
        }
        guard accepted else { return }
        wakeUp.wake()
    }
}

/// The worker's pipe could not be made (the process is out of file descriptors).
public struct ValidationWorkerError: UserFacingError, Equatable {
    public var code: Int32
    public init(errno code: Int32) { self.code = code }
    public var message: String {
        Words.checkCannotStart(reason: Errno(code).description)
    }
    public var exitCode: ExitCode { .failure }
}
