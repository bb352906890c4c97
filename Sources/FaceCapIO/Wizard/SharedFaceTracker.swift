import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// One `FaceTracker` for the live preview and the built-in validator: the wizard holds one set of interpreters
/// (the shared activation arena, the iris model's own and their scratch buffers: docs/performance.md, "Palms in the
/// wizard", has each model's) instead of two. The flow stops
/// the analysis before it takes a photo and starts it again only after, so the two hardly ever want the tracker at
/// the same time; when they do (a check cancelled by a key while it still runs, then the analysis restarted), the
/// live side skips its frame instead of waiting (`live` answers nil), so the capture loop never blocks on a check.
///
/// The validator reads every photo afresh (`photo`): the tracker's intervals are set to 1 (the detector, eyes and
/// hand flag on every picture, a second face always looked for), then put back, and the tracking forgotten
/// before and after, so neither side sees the other's face.
///
/// The tracker lives in a `PthreadLocked` box, reached only with its lock held: a pthread mutex, not
/// `Synchronization.Mutex`, so ThreadSanitizer sees the hand-over between the two threads (it reported the hand-over
/// through `Mutex`'s futex as a race). `PthreadLocked` is `@unchecked Sendable` for any value: that the tracker never
/// leaves the lock is this type's promise (every method returns values, not the tracker), not the compiler's.
public final class SharedFaceTracker: Sendable {
    private let tracker: PthreadLocked<FaceTracker>

    /// Takes `tracker` over: nothing else may use it.
    public init(_ tracker: sending FaceTracker) {
        self.tracker = PthreadLocked(tracker)
    }

    /// `body` with the lock held.
    private func withLock<Result>(_ body: (FaceTracker) -> Result) -> Result {
        tracker.withLock { body($0) }
    }

    /// Builds the tracker from models already loaded (`ModelFiles.loadAllFaceModels`); the models may be dropped
    /// once it is built (the interpreters keep their own packed copies of the weights).
    public convenience init(
        detector: TFLiteModel, landmarks: TFLiteModel, iris: TFLiteModel? = nil,
        hand: TFLiteModel? = nil, palm: TFLiteModel? = nil
    ) throws(ModelError) {
        let tracker = try FaceTracker(detector: detector, landmarks: landmarks, iris: iris, hand: hand, palm: palm)
        self.init(tracker)
    }

    /// The live analysis's turn: `body` on the tracker as tuned for preview frames, or nil (and `body` not run)
    /// while the validator has it.
    public func live<Result: Sendable>(_ body: (FaceTracker) -> Result) -> Result? {
        tracker.withLockIfAvailable { body($0) }
    }

    /// The faces on `photo` as the validator reads them (waits while the live analysis runs a frame); nil, and the
    /// tracker not used, when `cancellation` is cancelled by the time the lock is held (a check cancelled while it
    /// waited must not keep the restarted live analysis out for a whole photo).
    public func photo(_ photo: Frame, cancellation: Cancellation? = nil) -> [Face]? {
        withLock { tracker -> [Face]? in
            if cancellation?.isCancelled == true { return nil }
            let intervals = (tracker.detectionInterval, tracker.eyeInterval, tracker.handInterval)
            tracker.detectionInterval = 1
            tracker.eyeInterval = 1
            tracker.handInterval = 1
            tracker.reset()
            let faces = tracker.process(photo)
            tracker.reset()
            (tracker.detectionInterval, tracker.eyeInterval, tracker.handInterval) = intervals
            return faces
        }
    }

    /// `body` with the tracker held as the validator holds it while it reads a photo, without reading one (for
    /// tests: the live side meets a busy tracker when the test chooses, not when a race lets it).
    func holding<Result>(_ body: () -> Result) -> Result {
        withLock { _ in body() }
    }

    /// The tracker's intervals (for tests: the validator's settings never stay behind).
    public var intervals: (detection: Int, eyes: Int, hand: Int) {
        withLock { ($0.detectionInterval, $0.eyeInterval, $0.handInterval) }
    }
}
