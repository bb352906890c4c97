// The second eye of a frame on a second core: a thread started once with the `IrisLandmarker`, owning an iris
// interpreter of its own (its packed weights those of the first, `SharedConstants`), handed one eye per frame
// while the calling thread runs the other (docs/performance.md, "eyes").

internal import CKernels

#if canImport(Glibc)
import Glibc
#endif

/// A thread that runs one eye's crop, iris model and projection at a time for an `IrisLandmarker`: `start` hands
/// it an eye, `finish` waits for the points — or takes the eye back when the thread has not begun it, so a frame
/// never waits for the thread to get a core (on a loaded machine a woken thread can wait many milliseconds for
/// one: then the caller runs both eyes as if there were no worker). Its interpreter is its own (a run writes the
/// arena), so the two eyes of a frame run at once; the same code on the same crop gives the same points, bit for
/// bit, as the calling thread's interpreter would. The thread lives as long as the worker: `deinit` stops and
/// joins it.
///
/// The hand-over is a pthread mutex and condition variable, not atomics: every field both threads touch is read
/// and written with the mutex held, which also orders the worker's writes to its interpreter before the caller
/// reads the result, and ThreadSanitizer intercepts `pthread_*` and sees that order.
final class EyeWorker {
    /// One eye to read.
    struct Job {
        var frame: Frame
        var roi: FaceROI
        var flipped: Bool
    }

    private enum Phase {
        case idle
        case queued(Job)
        case running
        case done(EyeLandmarks?)
    }

    /// What `finish` found: the thread's points, or the job it had not begun, for the caller to run.
    enum Outcome {
        case read(EyeLandmarks?)
        case takenBack(Job)
    }

    /// What the two threads share. Unchecked `Sendable`: `phase` and `stopping` are only touched with `mutex`
    /// held; `landmarker` only by the worker thread, between taking a job and posting its result (the caller
    /// waits for that result before it hands over the next job, and never touches `landmarker` itself).
    private final class Shared: @unchecked Sendable {
        /// Both destroyed only after the thread was joined (the thread holds a reference until its loop ends).
        let mutex = PthreadMutex()
        let condition = PthreadCondition()
        let landmarker: IrisLandmarker
        var phase = Phase.idle
        var stopping = false
        /// While set the thread takes no job (for tests: every job is then taken back).
        var holding = false
        /// Whether `finish` takes back a job not begun (always but in tests, which make the thread run every one).
        var takesBack = true
        /// Jobs the thread ran, and jobs the caller took back (for tests and the bench).
        var ran = 0, takenBack = 0
        /// The signals blocked on the thread, as it found them when it began (for tests).
        var blocked: sigset_t?

        init(landmarker: IrisLandmarker) {
            self.landmarker = landmarker
        }

        /// The worker thread: waits for a job, runs it without the lock, posts the result; until `stopping`.
        func loop() {
            var mask = sigset_t()
            pthread_sigmask(SIG_SETMASK, nil, &mask)
            mutex.lock()
            blocked = mask
            while true {
                if stopping { break }
                guard case .queued(let job) = phase, !holding else {
                    condition.wait(mutex)
                    continue
                }
                phase = .running
                ran += 1
                mutex.unlock()
                let eye = landmarker.eye(in: job.frame, roi: job.roi, flipped: job.flipped)
                mutex.lock()
                phase = .done(eye)
                // Only the caller can be waiting now (the worker itself is here): one waiter at most.
                condition.signal()
            }
            mutex.unlock()
        }
    }

    private let shared: Shared
    private let thread: pthread_t

    /// Starts the thread, which runs its eyes on `landmarker` (a landmarker without a worker of its own, used by
    /// nothing else); nil when the system refuses a thread (the caller then runs both eyes itself).
    init?(landmarker: IrisLandmarker) {
        let shared = Shared(landmarker: landmarker)
        // The thread holds its own reference, released when its loop ends.
        let context = Unmanaged.passRetained(shared).toOpaque()
        var thread = pthread_t()
        // The thread starts with every signal blocked (it inherits the mask in force here), so a signal for the
        // process is always taken by a thread that handles it: the wizard's loop, whose poll it interrupts.
        var all = sigset_t(), previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        let started = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<Shared>.fromOpaque(context).takeRetainedValue().loop()
                return nil
            }, context)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        guard started == 0 else {
            Unmanaged<Shared>.fromOpaque(context).release()
            return nil
        }
        // Named, so that it can be told apart in `top -H` and a debugger.
        _ = fc_set_thread_name(UInt(thread), Self.threadName)
        self.shared = shared
        self.thread = thread
    }

    /// The worker thread's name (at most 15 bytes, the kernel's limit).
    static let threadName = "facecap-eyes"

    /// This worker's thread's own state: one per started thread, held by the thread until its loop ends and by
    /// the worker until `deinit` has joined the thread. A test that keeps only a weak reference to it sees it go
    /// when, and only when, this worker's thread has ended and been joined — what this code keeps, not a count of
    /// the process's threads (other threads of the test runner, Dispatch or a sanitizer come and go at any time).
    var threadState: AnyObject { shared }

    deinit {
        shared.mutex.withLock {
            shared.stopping = true
            shared.condition.signal()
        }
        pthread_join(thread, nil)
    }

    /// Hands `job` to the thread; `finish` must be called before the next `start`.
    func start(_ job: Job) {
        shared.mutex.withLock {
            guard case .idle = shared.phase else { preconditionFailure("EyeWorker.start before finish") }
            shared.phase = .queued(job)
            // Only the worker can be waiting now (the caller is here): one waiter at most.
            shared.condition.signal()
        }
    }

    /// The points of the job handed over by `start` (nil when the frame was too short), waiting while the thread
    /// runs it; or the job, taken back, when the thread has not begun it: the caller runs it then.
    func finish() -> Outcome {
        shared.mutex.withLock {
            while true {
                switch shared.phase {
                case .done(let eye):
                    shared.phase = .idle
                    return .read(eye)
                case .queued(let job) where shared.takesBack:
                    shared.phase = .idle
                    shared.takenBack += 1
                    return .takenBack(job)
                case .idle:
                    preconditionFailure("EyeWorker.finish without start")
                case .queued, .running:
                    shared.condition.wait(shared.mutex)
                }
            }
        }
    }

    /// The signals blocked on the worker thread when it began; nil until it has (it has once it ran a job).
    var blockedSignals: sigset_t? {
        shared.mutex.withLock { shared.blocked }
    }

    /// Jobs the thread ran and jobs taken back from it so far.
    var counts: (ran: Int, takenBack: Int) {
        shared.mutex.withLock { (shared.ran, shared.takenBack) }
    }

    /// Whether `finish` takes back a job the thread has not begun (true unless a test makes it wait for it).
    var takesBack: Bool {
        get { shared.mutex.withLock { shared.takesBack } }
        set { shared.mutex.withLock { shared.takesBack = newValue } }
    }

    /// Keeps the thread from taking jobs while set (for tests: `finish` then always takes the job back).
    var isHolding: Bool {
        get { shared.mutex.withLock { shared.holding } }
        set {
            shared.mutex.withLock {
                shared.holding = newValue
                // The caller may be waiting on the same condition too (a test that holds and does not take back).
                shared.condition.broadcast()
            }
        }
    }

    /// The worker's own interpreter (for tests: it shares the first one's weights).
    var interpreter: Interpreter { shared.landmarker.interpreter }
}
