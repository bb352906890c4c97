import FaceCapCore
import Synchronization

/// The built-in validator as a `PhotoChecker` (the default without `--server`): runs the face models
/// afresh on the full-resolution photo and hands the faces to `LocalValidator`.
///
/// It owns its own `FaceTracker` (the live one belongs to the capture loop and is tuned for preview
/// frames), behind a mutex: the tracker is not thread-safe, and the mutex is what makes the checker
/// `Sendable` for the worker thread. Progress is reported in steps: 0.1 started, 0.6 faces found,
/// 0.9 measured, 1 decided.
public final class BuiltInChecker: PhotoChecker {
    public let validator: LocalValidator
    private let tracker: Mutex<FaceTracker>

    /// Builds the checker's own interpreters from models already loaded (`ModelFiles.loadAllFaceModels`).
    /// Without the iris model the eyes are judged by the landmarks' eye aspect ratio only.
    public init(detector: TFLiteModel, landmarks: TFLiteModel, iris: TFLiteModel? = nil,
                validator: LocalValidator = LocalValidator()) throws(ModelError) {
        let tracker = try FaceTracker(detector: detector, landmarks: landmarks, iris: iris)
        // Every photo is a new picture: no tracking from the previous one, and the detector always runs,
        // so a second face is always looked for; the eyes are read on every photo.
        tracker.detectionInterval = 1
        tracker.eyeInterval = 1
        self.tracker = Mutex(tracker)
        self.validator = validator
    }

    public func check(_ photo: CapturedPhoto, request: ValidationRequest, cancellation: Cancellation,
                      progress: (Double) -> Void) -> ValidationOutcome {
        progress(0.1)
        let faces = tracker.withLock { tracker -> [Face] in
            tracker.reset()
            return tracker.process(photo.frame)
        }
        if cancellation.isCancelled { return .unreachable(reason: .cancelled, retryAfter: nil) }
        progress(0.6)
        let assessment = validator.assess(photo.frame, faces: faces)
        progress(0.9)
        let verdict = assessment.verdict(isFinal: request.isFinal)
        progress(1)
        return .verdict(verdict)
    }
}
