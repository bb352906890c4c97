import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// The frames the wizard reads, each shown, and those `AnalysisCadence` admits (at most about 20 a second, every
/// other frame at 30 fps) read through the face models and the analyzer into what the flow needs (`FrameGuidance`).
/// Every frame is read into `incoming`; an analysed one then swaps places with `analysed`, or with `kept` when it is
/// the sharpest frame of the current `ready` run (the one auto capture takes): buffers swapped, never copied per
/// frame, and a photo is always taken from a frame the models read, paired with that frame's own analysis.
final class FramePipeline {
    private let tracker: SharedFaceTracker
    private var analyzer: Analyzer
    private var cadence = AnalysisCadence(frameRate: 30)
    /// The source frame rate `cadence` was made for.
    private var cadenceFrameRate = 30.0
    private var incoming = Frame.empty()
    private var analysed = Frame.empty()
    private var kept = Frame.empty()
    private var keptAnalysis: AnalyzerOutput?
    private var keptFaces: [Face] = []
    private var latestAnalysis: AnalyzerOutput?
    private var latestFaces: [Face] = []
    /// Whether the frame of `latestAnalysis` is in `kept` (else in `analysed`).
    private var latestIsKept = false
    /// Where the newest frame read since the last reset is.
    private enum Newest { case none, incoming, analysed, kept }
    private var newestIn = Newest.none
    /// Frames analysed, and frames read (shown), since the start.
    private(set) var framesAnalysed = 0
    private(set) var framesRead = 0
    /// Exposure for the face on a live camera (a clip has no controls): its frames' times and analyses go to it.
    let exposure = CameraExposure()
    /// FACECAP_TEST_CRASH=after-steer, for tests only (docs/testing.md): the flow traps (a Swift precondition, SIGILL)
    /// on the first analysed frame after steering wrote a control, to check the fatal-signal path writes it back.
    private let crashAfterSteer = getenv("FACECAP_TEST_CRASH").map { String(cString: $0) } == "after-steer"

    init(tracker: SharedFaceTracker, thresholds: AnalyzerThresholds) {
        self.tracker = tracker
        analyzer = Analyzer(thresholds: thresholds)
    }

    /// Starts over (the camera opened again, a retry): no frame, nothing kept; `mustClear` are the codes the
    /// analyzer must see cleared before it says `ready` again; `awaitChange`, after a refusal no measure
    /// explains, that it must see the face leave `ready` (or hold it far longer) first.
    func reset(mustClear: Set<GuidanceCode>, awaitChange: Bool = false) {
        analyzer.reset(mustClear: mustClear, awaitChange: awaitChange)
        // While the validator still has the tracker this is skipped: it forgets the photo's face itself when done.
        _ = tracker.live { $0.reset() }
        cadence.reset()
        newestIn = .none
        latestIsKept = false
        keptAnalysis = nil
        latestAnalysis = nil
    }

    /// What `next(from:)` did with the source.
    enum Read {
        /// No frame was ready.
        case none
        /// A frame was read, to be shown; the cadence left it out (too soon after the last frame analysed).
        case skipped
        /// A frame was read, to be shown, but not analysed (the validator had the tracker).
        case shownOnly
        /// A frame was read and analysed.
        case analysed(FrameGuidance)
    }

    /// Reads the next frame of `source` and analyses it when the cadence admits it.
    func next(from source: FrameSource) throws(FrameSourceError) -> Read {
        guard try source.nextFrame(into: &incoming, timeout: 0) == .frame else { return .none }
        framesRead += 1
        newestIn = .incoming
        let camera = source as? Camera
        if camera != nil { exposure.frameRead(at: incoming.timestamp) }
        if source.frameRate != cadenceFrameRate {
            cadenceFrameRate = source.frameRate
            cadence = AnalysisCadence(frameRate: source.frameRate)
        }
        guard cadence.isDue(incoming.timestamp) else {
            cadence.skipped()
            return .skipped
        }
        // The built-in validator still reads a photo with the shared tracker (a check cancelled, the analysis
        // started again): this frame is shown but not analysed, rather than the loop waiting for the check. The
        // last analysis goes too: a manual photo waits for a frame analysed now rather than one from before the
        // check.
        let current = incoming
        // The hand model's cadence follows the last analysis (`HandCadence`): a hand matters most when ready. The
        // tracker's intervals follow the rate frames are analysed at (`AnalysisCadence`).
        let last = latestAnalysis
        let rate = cadence
        guard
            let faces = tracker.live({ tracker in
                rate.apply(to: tracker)
                tracker.followCadences(after: last)
                return tracker.process(current)
            })
        else {
            latestAnalysis = nil
            latestFaces = []
            // The analysis resumes with the first frame the tracker is free for, and that gap is not the rate.
            cadence.reset()
            return .shownOnly
        }
        cadence.analysed(incoming.timestamp)
        let output = analyzer.process(incoming, faces: faces)
        framesAnalysed += 1
        var guidance = FrameGuidance(output)
        // Not steered while the camera's own auto exposure is still settling after the start (`isWarmUp`). "Too
        // dark" and "Too bright" wait while it settles and while the camera is still being steered toward the face
        // (bounded: `LightWordsHold`).
        if let camera {
            if incoming.isWarmUp {
                guidance = exposure.guidanceWhileSettling(guidance, active: output.active, camera: camera)
            } else {
                exposure.analysed(output.metrics, camera: camera)
                guidance = exposure.guidance(guidance, active: output.active)
                precondition(!crashAfterSteer || camera.controlLedger.changed.isEmpty, "FACECAP_TEST_CRASH=after-steer")
            }
        }
        latestAnalysis = output
        latestFaces = faces
        if output.keepFrame {
            swap(&incoming, &kept)
            keptAnalysis = output
            keptFaces = faces
            latestIsKept = true
            newestIn = .kept
        } else {
            swap(&incoming, &analysed)
            latestIsKept = false
            newestIn = .analysed
        }
        return .analysed(guidance)
    }

    /// The newest frame, once there is one since the last reset.
    var newest: Frame? {
        switch newestIn {
        case .none: nil
        case .incoming: incoming
        case .analysed: analysed
        case .kept: kept
        }
    }

    /// The frame a photo is taken from, with its analysis and faces: for auto capture the sharpest frame of the
    /// ready run, else the newest frame analysed; nil before any frame was analysed.
    func photoFrame(for mode: CaptureMode) -> (frame: Frame, analysis: AnalyzerOutput, faces: [Face])? {
        if mode == .auto, let keptAnalysis { return (kept, keptAnalysis, keptFaces) }
        guard let latestAnalysis else { return nil }
        return (latestIsKept ? kept : analysed, latestAnalysis, latestFaces)
    }
}
