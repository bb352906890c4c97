/// Face detection plus landmarks for a stream of frames, the way MediaPipe's face mesh graph runs them.
///
/// While a face is tracked, the landmark model runs on the square derived from the previous frame's
/// landmarks and the detector does not run at all; only when the landmark model reports no face (or no
/// face was tracked yet) does the detector run again. One tracker owns its models' tensors and scratch
/// memory, so it is not thread-safe; use one per stream.
///
/// ```swift
/// let tracker = try FaceTracker(detector: detectorModel, landmarks: meshModel)
/// for frame in frames { let faces = tracker.process(frame) }   // best face first
/// ```
public final class FaceTracker {
    /// The detector (its thresholds can be tuned).
    public let detector: FaceDetector
    /// The landmark model (its presence threshold can be tuned).
    public let landmarker: FaceLandmarker
    // The intervals below count the frames `process` is given. The live wizard analyses about 15 frames a second and
    // sets them from `AnalysisCadence` to the same durations as these defaults at 30 fps.

    /// Run the detector every this many frames even while tracking, so a second face entering the frame
    /// is noticed (0: only when the tracked face is lost, as MediaPipe does). 10 frames (1/3 s at 30 fps)
    /// fits well inside `AnalyzerThresholds.secondFaceMemory`, so `multipleFaces` holds between runs; it
    /// costs one detector run (~1 ms) per 10 frames.
    public var detectionInterval = 10
    /// Whether the last `process` call ran the detector.
    public private(set) var detectorRan = false
    /// The iris model, when one was given: it runs on the best face's eyes.
    public let iris: IrisLandmarker?
    /// Run the iris model (two runs, one per eye, ~2 × 107 MFLOP) on every this many frames of a tracked
    /// face, and on every frame where the face was detected anew (1: every frame; the validator's choice).
    /// Every third frame (10 eye readings a second at 30 fps) keeps the median frame within the analysis
    /// budget while a blink (100–300 ms) is still seen; only frames with eyes read are capture candidates.
    public var eyeInterval = 3
    /// The iris model's interval while the face is asked something else or is unlit (`eyeCadence` not `.ready`):
    /// every eighth frame is 3.75 readings a second, 0.27 s apart, inside the analyzer's `eyeMemory` (0.5 s). The
    /// eye codes (`lookStraight` from the gaze, `eyesClosed`) rank below every framing, light and cover code, and
    /// only frames of a ready face are capture candidates, where the eyes keep `eyeInterval`: half the iris model's
    /// cost while the face is still being framed, and an eye code a moment later there. With an `eyeInterval` of 1
    /// (the validator's) every frame is read whatever the cadence.
    public var eyeFixingInterval = 8
    /// Whether the last `process` call ran the iris model.
    public private(set) var eyesRan = false
    private var framesSinceEyes = 0
    /// The hand-landmark model, when one was given: its reading on the best face (the mouth and the other parts).
    public let hand: HandLandmarker?
    /// The palm detector, when one was given (or set: one made with `arena` shares the tracker's memory): where a
    /// single frame must decide (every crop read: a photo, a face detected anew, a frame to be kept), the hand model
    /// is also read on each palm found around the face (`palmReading`, FaceTracker+Palm.swift).
    public var palm: PalmDetector?
    /// The live loop reads the palms with every this many hand runs of some crops (`livePalmIfDue`; 0: never,
    /// only on the frames that read every crop).
    public var palmEvery = FaceTracker.defaultPalmEvery
    var handRunsSincePalm = 0
    var lastPalm: HandReading?
    /// Palm readings made by the live loop (for tests).
    public internal(set) var palmsRead = 0
    /// The activation memory the detector, landmark, hand and palm models share: they run one after another on the
    /// thread that calls `process`, never at once (the iris model, whose second eye runs on the worker's thread
    /// beside the first, keeps its own).
    public let arena: ActivationArena
    /// Run the hand model every this many frames of a tracked face (its turn), never on a frame the iris model ran
    /// on: while a hand is about, two crops, the upright mouth crop and one of the others in turn (`otherCrops`);
    /// while none is, the crops whose look changed, else one in turn (`quietHands`); the reading being this one with
    /// the other crops' last ones. Between the turns of a ready face, on the frame a crop's look changed, eye frame
    /// or not (`cropsChangedNow`). On every frame where the face was detected anew, with 1 (every frame, eyes or not:
    /// the validator's choice), and for a photo waiting for its reading (`HandCadence.capture`), every crop runs.
    /// Every sixth frame is five turns a second (with a hand about: the upright mouth crop in 0.2 s, the turned one in
    /// 0.4 s, each upper-face crop in 2 s; without: a crop whose look changed at the next turn, else in turn, the
    /// upright mouth crop every 0.4 s and each other crop every 2.4 s, `quietCrops`, and none much longer while others
    /// keep changing: `overdueCrop`), held by the analyzer for `handMemory`; a crop costs about eight FaceMesh runs.
    public var handInterval = 6
    /// What the hand model's cadence on a tracked face follows, set by the live wizard before each frame from the
    /// last analysis (`HandCadence(after:)`): `.ready` keeps `handInterval` (and the runs on a look's change between),
    /// `.fixing` and `.unlit` take `handFixingInterval` (a hand over the face is said before the light,
    /// `GuidanceRules`), `.capture` reads every crop at once. A `handInterval` of 1 (the validator's) reads every frame
    /// whatever the cadence. A face the landmark model did not confirm is read every `handFixingInterval` frames
    /// whatever the cadence, never while `.unlit` (`hiddenByHandIfDue`).
    public var handCadence = HandCadence.ready
    /// What the iris model's cadence follows (`HandCadence(eyesAfter:)`): `.ready` keeps `eyeInterval`, any other
    /// takes `eyeFixingInterval`.
    public var eyeCadence = HandCadence.ready

    /// Sets both models' cadences for the next frame from the last frame's analysis (nil: none yet, or the last frame
    /// only shown), as the live wizard does before each frame; `facecap analyze` on a clip does the same, so that its
    /// figures are the wizard's.
    public func followCadences(after output: AnalyzerOutput?) {
        handCadence = HandCadence(after: output)
        eyeCadence = HandCadence(eyesAfter: output)
    }
    /// The hand model's interval while the face is asked something else (`HandCadence.fixing`): every twelfth
    /// frame is 2.5 readings a second, 0.40–0.43 s apart with the eye frames skipped, inside the analyzer's
    /// `handMemory` (0.5 s), so a hand that was seen stays said between the runs; half the model's cost on a face
    /// that is still being framed.
    public var handFixingInterval = 12
    /// Whether the hand model may run on a frame the iris model ran on. Off (the default): at 30 fps, where a frame
    /// has 33 ms, the hand waits for a frame without eyes, which its interval (a multiple of `eyeInterval`) finds
    /// at once. The live wizard analysing 15 frames a second (`AnalysisCadence`) reads the eyes every 2nd frame and
    /// the hand every 3rd: waiting would move every other run a frame later (0.27 s instead of 0.2 s), so there it
    /// runs on its interval, eyes or not, in the 66 ms such a frame has.
    public var handOnEyeFrames = false
    /// Whether the last `process` call ran the hand model.
    public internal(set) var handRan = false
    /// Frames since the hand model last ran; a fresh tracker, or one just reset, is due at once (a photo's face
    /// that a hand hides is read on its one frame, `hiddenByHandIfDue`).
    var framesSinceHand = FaceTracker.handDueNow
    private static let handDueNow = Int.max / 2
    /// The crop the next single hand run reads, and the last reading of each crop on this face.
    var handCrop = 0
    var lastHand = [HandReading?](repeating: nil, count: HandLandmarker.crops.count)
    /// The crop read beside the upright mouth one, run after run: the turned mouth crop every other run (as often
    /// as before: a hand only it sees, high over the nose, is named as soon as then), the five upper-face crops
    /// (between the eyes, each cheek, and out from each cheek) each every tenth run.
    static let otherCrops = [1, 2, 1, 3, 1, 4, 1, 5, 1, 6]
    /// Read only the crops whose look changed while no hand is about (`handCropsForRun`); off, every run reads two
    /// crops as `otherCrops` says.
    public var quietHands = true
    /// The look change (`CropLook.change`) that has a crop read at the next run while no hand is about.
    public var lookChange: Float = 0.02
    /// A crop whose last reading's flag reaches this keeps the runs at two crops (a hand is about).
    static let handAboutFlag: Float = 0.25
    /// While no hand is about and no crop's look changed, a run reads one crop: the upright mouth crop every other
    /// run, the others in turn between.
    static let quietCrops = [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6]
    var quietCrop = 0
    /// Runs since each crop was last read, counted from where its turn would fall after a reading of every crop
    /// (`staggerRunsUnread`): while no hand is about, a crop left out as long as its turn allows takes a slot even
    /// while other crops keep changing (a person talking moves the mouth crops every run), so none waits much longer
    /// than its turn (`overdueCrop`).
    var runsUnread = [Int](repeating: 0, count: HandLandmarker.crops.count)
    /// Each crop's look when it was last read (`CropLook`), and scratch for a look.
    var lastLook = [CropLook?](repeating: nil, count: HandLandmarker.crops.count)
    /// Each crop's look on this frame (`takeFrameLooks`, on every frame of a tracked face), how far it moved since the
    /// frame before (nil on a face's first frame), and the runs `cropsChangedNow` made since the last turn.
    var frameLook = [CropLook?](repeating: nil, count: HandLandmarker.crops.count)
    var frameJump = [Float?](repeating: nil, count: HandLandmarker.crops.count)
    var lookRuns = 0
    /// Between two turns of a ready face, at most this many runs on the crops whose look changed on their frame
    /// (`cropsChangedNow`; 0: none), each of at most `maxLookCrops` crops.
    public var lookRunsPerTurn = 1
    public var maxLookCrops = 2
    /// A look counts as changed on its frame when it moved this far (`CropLook.change`) since the frame before too,
    /// besides `lookChange` since its reading: a hand that came, not a mouth that drifted while talking.
    public var lookJump: Float = 0.02
    /// Whether the last `process` call's hand run was one of those (not the turn).
    public internal(set) var handRanOnLook = false
    var lookScratch = [Float](repeating: 0, count: CropLook.scratchCount)
    /// Hand-model runs (crops read) of the last `process` call (for tests and the record).
    public internal(set) var handCropsRead = 0
    /// Which crops (`HandLandmarker.crops` indices) the last `process` call read, when it read some and not all.
    public internal(set) var handCropsReadList: [Int] = []

    private var tracked: FaceROI?
    /// The bounds of the last tracked face's landmarks, and the frames since (`lostFace`).
    private var lastTrackedBox: Rect?
    private var framesSinceTracked = 0
    /// A face lost this many frames ago or fewer is looked for under a hand where it was (`lostFace`): 15 frames,
    /// half a second at 30 fps, as long as the analyzer's `handMemory`.
    public var lostFaceMemory = 15
    /// Boxes of detections the landmark model rejected while this face was tracked: a detection there again
    /// (a chandelier, a pattern: they stay put) is rejected without a landmark run, so a wide one no longer
    /// sends every detector frame through the widest-first pass. Forgotten with the track.
    private var rejectedBoxes: [Rect] = []
    /// Landmark-model runs made by the last `process` call (for tests and the record).
    public private(set) var landmarkRuns = 0
    private var trackedScore: Float = 0
    private var points = [SIMD3<Float>](repeating: .zero, count: FaceLandmarker.count)
    private var framesSinceDetection = 0
    private var faces: [Face] = []
    /// Reused for the tracked face's keypoints (a face gets a copy).
    private var keypoints = [Point2](repeating: Point2(x: 0, y: 0), count: 6)

    /// Builds the models' interpreters (all tensor memory is planned and allocated here). With `parallelEyes`
    /// (the default on a machine with more than one core, `IrisLandmarker.parallelByDefault`) the iris model's
    /// two eyes run at once, one on a thread the tracker starts now and joins when it goes: one thread per
    /// tracker, whatever the number of frames. The detector, landmark, hand and palm models run one after another
    /// on the caller's thread and share one activation arena (`arena`); the iris model keeps its own.
    public init(
        detector: TFLiteModel, landmarks: TFLiteModel, iris: TFLiteModel? = nil,
        hand: TFLiteModel? = nil, palm: TFLiteModel? = nil,
        parallelEyes: Bool = IrisLandmarker.parallelByDefault
    ) throws(ModelError) {
        let arena = ActivationArena()
        self.arena = arena
        self.detector = try FaceDetector(model: detector, arena: arena)
        self.landmarker = try FaceLandmarker(model: landmarks, arena: arena)
        self.iris = try iris.map { model throws(ModelError) in
            try IrisLandmarker(model: model, parallel: parallelEyes)
        }
        self.hand = try hand.map { model throws(ModelError) in try HandLandmarker(model: model, arena: arena) }
        self.palm = try palm.map { model throws(ModelError) in try PalmDetector(model: model, arena: arena) }
        faces.reserveCapacity(8)
    }

    /// The eyes of the face with `points`, when the iris model is there and it is time (or `now`).
    private func eyesIfDue(_ frame: Frame, _ points: [SIMD3<Float>], now: Bool) -> FaceEyes? {
        guard let iris else { return nil }
        framesSinceEyes += 1
        let interval = eyeInterval <= 1 || eyeCadence == .ready ? eyeInterval : max(eyeInterval, eyeFixingInterval)
        guard now || framesSinceEyes >= interval else { return nil }
        framesSinceEyes = 0
        eyesRan = true
        return iris.eyes(in: frame, landmarks: points)
    }

    /// Forgets the tracked face: the next frame starts with the detector (use between unrelated images).
    public func reset() {
        tracked = nil
        lastTrackedBox = nil
        framesSinceHand = Self.handDueNow
        rejectedBoxes.removeAll(keepingCapacity: true)
        framesSinceDetection = 0
        for crop in lastHand.indices { lastHand[crop] = nil }
        for crop in lastLook.indices { lastLook[crop] = nil }
        forgetFrameLooks()
        forgetPalms()
        staggerRunsUnread()
    }

    /// Faces in `frame`, in frame pixels, the widest confirmed face first: the analyzer measures the widest
    /// face (SPEC §4 "the largest"), so that is the one the iris model runs on. Every detection goes through
    /// the landmark model (up to `maxConfirmations` a frame): the ones it confirms carry their landmarks, the
    /// others come last with `isRejected` set (not faces). A face that is tracked (not re-detected this frame)
    /// has `isTracked` set and a detection derived from its landmarks.
    public func process(_ frame: Frame) -> [Face] {
        let result = Self.copied(track(frame))
        // The faces' arrays are the caller's alone: dropped (and freed) wherever it drops them.
        faces.removeAll(keepingCapacity: true)
        return result
    }

    /// `process` into the tracker's own `faces`, which it reuses on the next frame.
    private func track(_ frame: Frame) -> [Face] {
        faces.removeAll(keepingCapacity: true)
        detectorRan = false
        eyesRan = false
        handRan = false
        handRanOnLook = false
        handCropsRead = 0
        handCropsReadList = []
        landmarkRuns = 0
        framesSinceDetection += 1
        if tracked != nil { landmarkRuns += 1 }
        if let roi = tracked, let presence = landmarker.landmarks(in: frame, roi: roi, into: &points),
            presence >= landmarker.minPresence
        {
            tracked = FaceROI(landmarks: points)
            Self.keypoints(fromLandmarks: points, into: &keypoints)
            let detection = FaceDetection(
                score: trackedScore, box: Self.bounds(points),
                keypoints: Self.copied(keypoints))
            lastTrackedBox = detection.box
            framesSinceTracked = 0
            if detectionInterval > 0, framesSinceDetection >= detectionInterval {
                framesSinceDetection = 0
                detectorRan = true
                let detections = detector.detect(frame)
                // Detections already rejected on this track are not looked at again (`rejectedBoxes`).
                let apart = detections.filter { iou($0.box, detection.box) < 0.3 }
                let known = apart.filter { wasRejected($0) }
                let others = apart.filter { !wasRejected($0) }
                // A wider face came in: it is the one measured now, so it gets the landmarks (and eyes).
                if others.contains(where: { $0.box.width > detection.box.width }) {
                    let kept = rejectedBoxes
                    landmarkWidest(of: detections.filter { !wasRejected($0) }, in: frame)
                    if tracked != nil {
                        // Still a face to track: what was rejected before stays so, with what was just rejected.
                        rejectedBoxes = kept + faces.filter(\.isRejected).map(\.detection.box)
                    }
                    for detection in known {
                        faces.append(Face(detection: detection, landmarks: nil, isRejected: true))
                    }
                    return faces
                }
                let eyes = eyesIfDue(frame, points, now: false)
                let landmarks = FaceLandmarks(points: Self.copied(points), presence: presence)
                faces.append(
                    Face(
                        detection: detection, landmarks: landmarks,
                        isTracked: true, eyes: eyes, hand: handIfDue(frame, points, now: false)))
                appendConfirming(others, in: frame)
                rejectedBoxes += faces.filter(\.isRejected).map(\.detection.box)
                for detection in known { faces.append(Face(detection: detection, landmarks: nil, isRejected: true)) }
                return faces
            }
            let eyes = eyesIfDue(frame, points, now: false)
            let landmarks = FaceLandmarks(points: Self.copied(points), presence: presence)
            faces.append(
                Face(
                    detection: detection, landmarks: landmarks,
                    isTracked: true, eyes: eyes, hand: handIfDue(frame, points, now: false)))
            return faces
        }
        detectorRan = true
        framesSinceDetection = 0
        framesSinceTracked += 1
        landmarkWidest(of: detector.detect(frame), in: frame)
        // A new track: what this pass rejected is remembered for it.
        rejectedBoxes.removeAll(keepingCapacity: true)
        if tracked != nil { rejectedBoxes += faces.filter(\.isRejected).map(\.detection.box) }
        return faces
    }

    /// Whether `detection` sits where a detection was rejected on this track (IoU ≥ 0.5).
    private func wasRejected(_ detection: FaceDetection) -> Bool {
        rejectedBoxes.contains { iou($0, detection.box) >= 0.5 }
    }

    /// At most this many landmark runs confirm detections on one frame (~2 ms each): a cluttered background
    /// with many false detections must not stall the frame. Detections past it stay unconfirmed: rejected.
    public var maxConfirmations = 4

    /// The landmarks of `detection` when the landmark model confirms a face there (into `points`).
    private func confirm(_ detection: FaceDetection, in frame: Frame) -> FaceLandmarks? {
        landmarkRuns += 1
        guard let presence = landmarker.landmarks(in: frame, roi: FaceROI(detection: detection), into: &points),
            presence >= landmarker.minPresence
        else { return nil }
        return FaceLandmarks(points: Self.copied(points), presence: presence)
    }

    /// A copy in storage of its own, for what `process` hands out: the tracker's buffers (`faces`, `points`,
    /// `keypoints`) never leave it, nor does it keep what it handed out. It writes its buffers in place on its
    /// next frame — perhaps the validator's photo, on another thread (`SharedFaceTracker`) — while the caller may
    /// still read the faces it got. Shared copy-on-write they would be copied or reused by their reference count
    /// alone, a hand-over ThreadSanitizer cannot see (the Swift runtime is not instrumented): it reported the
    /// validator's writes of `points` and the live side's reads of an earlier frame's landmarks as a race.
    /// About 8 KB of copies a face and frame.
    private static func copied<Element>(_ array: [Element]) -> [Element] {
        array.withUnsafeBufferPointer { Array($0) }
    }

    /// Appends `detections` to `faces`, the widest the landmark model confirms first with its landmarks (and a
    /// fresh eye reading), and tracks that face from the next frame on. A detection the landmark model does
    /// not confirm is not a face (a chandelier, a pattern): it is kept only as `isRejected`, after the faces.
    private func landmarkWidest(of detections: [FaceDetection], in frame: Frame) {
        tracked = nil
        for crop in lastHand.indices { lastHand[crop] = nil }
        for crop in lastLook.indices { lastLook[crop] = nil }
        forgetFrameLooks()
        forgetPalms()
        staggerRunsUnread()
        var order = detections.indices.sorted { detections[$0].box.width > detections[$1].box.width }
        var rejected: [FaceDetection] = []
        var runs = 0
        while !order.isEmpty, runs < maxConfirmations {
            let detection = detections[order.removeFirst()]
            runs += 1
            guard let landmarks = confirm(detection, in: frame) else {
                rejected.append(detection)
                continue
            }
            tracked = FaceROI(landmarks: landmarks.points)
            trackedScore = detection.score
            lastTrackedBox = Self.bounds(landmarks.points)
            framesSinceTracked = 0
            faces.append(
                Face(
                    detection: detection, landmarks: landmarks,
                    eyes: eyesIfDue(frame, landmarks.points, now: true),
                    hand: handIfDue(frame, landmarks.points, now: true)))
            break
        }
        appendConfirming(order.map { detections[$0] }, in: frame, runs: runs)
        // No face confirmed: a hand may be what hides it (the widest rejected detection, or where the face was
        // tracked a moment ago when the detector finds nothing at all).
        let hidden = tracked == nil ? rejected.first ?? lostFace() : nil
        let handOver = hidden.flatMap { hiddenByHandIfDue($0, in: frame, detected: !rejected.isEmpty) }
        for detection in rejected {
            faces.append(
                Face(
                    detection: detection, landmarks: nil, isRejected: true,
                    hiddenByHand: detection == hidden ? handOver : nil))
        }
        if let hidden, rejected.isEmpty, let handOver {
            faces.append(Face(detection: hidden, landmarks: nil, isRejected: true, hiddenByHand: handOver))
        }
    }

    /// Where the face lost on a recent frame was (its last landmarks' bounds, score 0), while that loss is at most
    /// `lostFaceMemory` frames old: a hand brought over the whole face may hide it from the detector too.
    private func lostFace() -> FaceDetection? {
        guard let box = lastTrackedBox, framesSinceTracked <= lostFaceMemory else { return nil }
        return FaceDetection(score: 0, box: box, keypoints: [])
    }

    /// The hand model and the palms over `detection`, a face the landmark model did not confirm
    /// (`hiddenByHandOrPalm`; `detected` when it is a detection, not where a face was lost), every `handFixingInterval`
    /// frames whatever the cadence (0.4 s, inside `handMemory`: the CPU of a hidden face, docs/performance.md; every
    /// frame for a photo, never unlit), and at once on the first frame a tracked face is lost (a hand brought over it
    /// is said without waiting for the next run).
    private func hiddenByHandIfDue(_ detection: FaceDetection, in frame: Frame, detected: Bool) -> Float? {
        guard hand != nil else { return nil }
        framesSinceHand += 1
        let everyFrame = handInterval <= 1
        if !everyFrame, handCadence == .unlit { return nil }
        let interval = everyFrame ? 1 : max(handInterval, handFixingInterval)
        let justLost = framesSinceTracked == 1 && lastTrackedBox != nil
        guard everyFrame || handCadence == .capture || justLost || framesSinceHand >= interval else { return nil }
        framesSinceHand = 0
        handRan = true
        return hiddenByHandOrPalm(frame, box: detection.box, detected: detected)
    }

    /// Appends the other faces of a frame: each detection the landmark model confirms with its landmarks (so a
    /// second face counts only when it is one), the others as rejected — past `maxConfirmations` landmark runs
    /// too, unconfirmed being no face.
    private func appendConfirming(_ detections: [FaceDetection], in frame: Frame, runs: Int = 0) {
        var runs = runs
        var rejected: [FaceDetection] = []
        for detection in detections {
            runs += 1
            if runs <= maxConfirmations, let landmarks = confirm(detection, in: frame) {
                faces.append(Face(detection: detection, landmarks: landmarks))
            } else {
                rejected.append(detection)
            }
        }
        for detection in rejected { faces.append(Face(detection: detection, landmarks: nil, isRejected: true)) }
    }

    /// Every stage on every call, for `facecap bench`: conversion + detector, then conversion + landmarks
    /// on the best detection or, on a frame without a face, on the centred square; and the eyes (both, with
    /// conversion) every `eyeInterval` calls and the hand flag every `handInterval` calls (not with the eyes),
    /// as a tracked face gets them (`eyesRan` and `handRan` say when).
    public func processFullPipeline(_ frame: Frame) -> Float? {
        eyesRan = false
        handRan = false
        handRanOnLook = false
        handCropsRead = 0
        handCropsReadList = []
        let detections = detector.detect(frame)
        let side = Float(min(frame.width, frame.height))
        let roi =
            detections.first.map { FaceROI(detection: $0) }
            ?? FaceROI(centre: Point2(x: Float(frame.width) / 2, y: Float(frame.height) / 2), side: side, rotation: 0)
        let presence = landmarker.landmarks(in: frame, roi: roi, into: &points)
        // The eyes as a tracked face gets them: every `eyeInterval` calls.
        _ = eyesIfDue(frame, points, now: false)
        _ = handIfDue(frame, points, now: false)
        return presence
    }

    /// The six detector keypoints rebuilt from landmarks: eye centres from the eye corners, nose tip 1,
    /// mouth centre from the inner lips, ear tragions ≈ the face edges 234/454.
    static func keypoints(fromLandmarks p: [SIMD3<Float>], into keypoints: inout [Point2]) {
        func point(_ v: SIMD3<Float>) -> Point2 { Point2(x: v.x, y: v.y) }
        func mid(_ a: Int, _ b: Int) -> Point2 { point((p[a] + p[b]) / 2) }
        keypoints[0] = mid(33, 133)
        keypoints[1] = mid(362, 263)
        keypoints[2] = point(p[1])
        keypoints[3] = mid(13, 14)
        keypoints[4] = point(p[234])
        keypoints[5] = point(p[454])
    }

    /// The bounding box of the landmarks (what a tracked face reports as its box).
    static func bounds(_ points: [SIMD3<Float>]) -> Rect {
        var lo = SIMD2<Float>(repeating: .infinity), hi = SIMD2<Float>(repeating: -.infinity)
        for v in points {
            lo = SIMD2(min(lo.x, v.x), min(lo.y, v.y))
            hi = SIMD2(max(hi.x, v.x), max(hi.y, v.y))
        }
        return Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }
}

/// Intersection over union of two boxes (0 when they do not overlap).
public func iou(_ a: Rect, _ b: Rect) -> Float {
    let ix = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
    let iy = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
    guard ix > 0, iy > 0 else { return 0 }
    let intersection = ix * iy
    let union = a.width * a.height + b.width * b.height - intersection
    return union > 0 ? intersection / union : 0
}
