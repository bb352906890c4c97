import FaceCapCore

/// The built-in validator as a `PhotoChecker` (the default without `--server`): runs the face models
/// afresh on the full-resolution photo and hands the faces to `LocalValidator`.
///
/// Its `FaceTracker` sits behind a mutex (`SharedFaceTracker`): the tracker is not thread-safe, and the mutex is
/// what makes the checker `Sendable` for the worker thread. The wizard shares the live analysis's tracker with it
/// (`init(sharing:)`), so the face models' interpreters are built once; each photo is read with the intervals at 1
/// and no tracking before or after. Progress is reported in steps: 0.1 started, 0.6 faces found, 0.9 measured,
/// 1 decided.
public final class BuiltInChecker: PhotoChecker {
    public let validator: LocalValidator
    /// The tracker the photos are read with (the live analysis's, in the wizard).
    public let tracker: SharedFaceTracker

    /// Builds the checker's own interpreters from models already loaded (`ModelFiles.loadAllFaceModels`).
    /// Without the iris model the eyes are judged by the landmarks' eye aspect ratio only; without the hand
    /// model a hand over the mouth only by the mouth measures; without the palm model hands only where the crops
    /// around the face see them.
    public convenience init(
        detector: TFLiteModel, landmarks: TFLiteModel, iris: TFLiteModel? = nil,
        hand: TFLiteModel? = nil, palm: TFLiteModel? = nil,
        validator: LocalValidator = LocalValidator()
    ) throws(ModelError) {
        self.init(
            sharing: try SharedFaceTracker(
                detector: detector, landmarks: landmarks, iris: iris, hand: hand,
                palm: palm),
            validator: validator)
    }

    /// Reads the photos with `tracker`, which the live analysis may use too (the wizard's one set of interpreters).
    public init(sharing tracker: SharedFaceTracker, validator: LocalValidator = LocalValidator()) {
        self.tracker = tracker
        self.validator = validator
    }

    public func check(
        _ photo: CapturedPhoto, request: ValidationRequest, cancellation: Cancellation,
        progress: (Double) -> Void
    ) -> ValidationOutcome {
        progress(0.1)
        // Every photo is a new picture: no tracking from the previous one, and the detector always runs,
        // so a second face is always looked for; the eyes and the hand flag are read on every photo.
        guard let faces = tracker.photo(photo.frame, cancellation: cancellation), !cancellation.isCancelled else {
            return .unreachable(reason: .cancelled, retryAfter: nil)
        }
        progress(0.6)
        let assessment = validator.assess(photo.frame, faces: faces)
        progress(0.9)
        let verdict = assessment.verdict(isFinal: request.isFinal)
        progress(1)
        return .verdict(verdict)
    }
}
