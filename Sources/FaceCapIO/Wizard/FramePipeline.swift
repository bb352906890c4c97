import FaceCapCore

/// The frames the wizard reads, each through the face models and the analyzer into what the flow needs
/// (`FrameGuidance`). It keeps the newest frame and the sharpest frame of the current `ready` run (the one auto
/// capture takes), swapped between two buffers, never copied per frame.
final class FramePipeline {
    private let tracker: SharedFaceTracker
    private var analyzer: Analyzer
    /// After a keep-swap `frame` holds the stale buffer and `kept` the newest frame (`latestIsKept`).
    private var frame = Frame.empty()
    private var kept = Frame.empty()
    private var keptAnalysis: AnalyzerOutput?
    private var keptFaces: [Face] = []
    private var latestAnalysis: AnalyzerOutput?
    private var latestFaces: [Face] = []
    private var latestIsKept = false
    private var hasFrame = false
    /// Frames analysed since the start.
    private(set) var framesAnalysed = 0

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
        hasFrame = false
        latestIsKept = false
        keptAnalysis = nil
        latestAnalysis = nil
    }

    /// What `next(from:)` did with the source.
    enum Read {
        /// No frame was ready.
        case none
        /// A frame was read, to be shown, but not analysed (the validator had the tracker).
        case shownOnly
        /// A frame was read and analysed.
        case analysed(FrameGuidance)
    }

    /// Reads the next frame of `source` and analyses it.
    func next(from source: FrameSource) throws(FrameSourceError) -> Read {
        // Always read into `frame`: after a keep-swap it holds the stale buffer and `kept` the newest frame.
        guard try source.nextFrame(into: &frame, timeout: 0) == .frame else { return .none }
        latestIsKept = false
        hasFrame = true
        // The built-in validator still reads a photo with the shared tracker (a check cancelled, the analysis
        // started again): this frame is shown but not analysed, rather than the loop waiting for the check. Its
        // pixels replaced the analysed frame's, so that analysis goes too: a manual photo waits for a frame
        // analysed as itself rather than pairing these pixels with another frame's faces.
        let current = frame
        // The hand model's cadence follows the last analysis (`HandCadence`): a hand matters most when ready.
        let cadence = HandCadence(after: latestAnalysis)
        guard let faces = tracker.live({ tracker in
            tracker.handCadence = cadence
            return tracker.process(current)
        }) else {
            latestAnalysis = nil
            latestFaces = []
            return .shownOnly
        }
        let output = analyzer.process(frame, faces: faces)
        framesAnalysed += 1
        latestAnalysis = output
        latestFaces = faces
        if output.keepFrame {
            swap(&frame, &kept)
            keptAnalysis = output
            keptFaces = faces
            latestIsKept = true
        }
        return .analysed(FrameGuidance(output))
    }

    /// The newest frame, once there is one since the last reset.
    var newest: Frame? { hasFrame ? (latestIsKept ? kept : frame) : nil }

    /// The frame a photo is taken from, with its analysis and faces: for auto capture the sharpest frame of the
    /// ready run, else the newest; nil before any frame was analysed.
    func photoFrame(for mode: CaptureMode) -> (frame: Frame, analysis: AnalyzerOutput, faces: [Face])? {
        if mode == .auto, let keptAnalysis { return (kept, keptAnalysis, keptFaces) }
        guard let latestAnalysis else { return nil }
        return (latestIsKept ? kept : frame, latestAnalysis, latestFaces)
    }
}

/// The frame pacing of a run (`FACECAP_FRAME_STATS`): each analysed frame's time from its arrival to its guidance
/// handled, and, while the wizard runs, the statistics so far written every `interval` seconds to `path`
/// (`FrameStatsWriter`, atomically), so a soak watched from outside can take the difference of two snapshots.
final class FramePacing {
    private(set) var latency = LatencyHistogram()
    var path: String?
    var interval = 5.0
    private var writtenAt = -Double.infinity

    /// One frame took `seconds`; at `now` the snapshot is written when it is due.
    func record(_ seconds: Double, now: Double) {
        latency.record(seconds)
        if let path, now - writtenAt >= interval {
            writtenAt = now
            try? write(to: path, at: now)
        }
    }

    func write(to path: String, at now: Double) throws(OutputFileError) {
        try FrameStatsWriter.write(latency, at: now, to: path)
    }
}
