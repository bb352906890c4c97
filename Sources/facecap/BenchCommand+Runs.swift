import FaceCapCore
import FaceCapIO

/// `facecap bench`'s runs, one kind each: every model alone, the worst-case frame, a session on a photo, the input
/// conversions of `--profile`, and the printed results.
extension BenchCommand {
    /// Each model run alone on pseudo-random input: medians of wall and CPU time.
    struct ModelRuns {
        let detector: Interpreter, landmarks: Interpreter, iris: Interpreter, irisPair: Interpreter
        let hand: Interpreter, palm: Interpreter
        /// Each model's medians, in the order of `names`.
        var times: [(name: String, wall: Double, cpu: Double)] = []

        init(
            _ models: (
                detector: TFLiteModel, landmarks: TFLiteModel, iris: TFLiteModel, hand: TFLiteModel,
                palm: TFLiteModel
            ), runs: Int
        ) throws {
            detector = try Self.filled(models.detector, low: -1)
            landmarks = try Self.filled(models.landmarks)
            iris = try Self.filled(models.iris)
            irisPair = try Interpreter(model: models.iris, batch: 2)
            fillPseudoRandom(irisPair.input(0, image: 0), low: 0, high: 1)
            fillPseudoRandom(irisPair.input(0, image: 1), low: 0, high: 1, seed: 54321)
            hand = try Self.filled(models.hand)
            palm = try Self.filled(models.palm)
            for (name, interpreter) in zip(Self.names, [detector, landmarks, iris, irisPair, hand, palm]) {
                let median = medians(runs: runs) { interpreter.run() }
                times.append((name, median.wall, median.cpu))
            }
        }

        /// An interpreter of `model` with its input filled with pseudo-random values from `low` to 1.
        static func filled(_ model: TFLiteModel, low: Float = 0) throws -> Interpreter {
            let interpreter = try Interpreter(model: model)
            fillPseudoRandom(interpreter.input(), low: low, high: 1)
            return interpreter
        }

        static let names = ["detector", "landmarks", "iris", "iris_pair", "hand", "palm"]
        var results: [(String, Double)] { times.map { ("\($0.name)_ms", $0.wall) } }
        var cpuResults: [(String, Double)] { times.map { ("\($0.name)_cpu_ms", $0.cpu) } }
    }

    /// The worst case (`frame_full_*`): a synthetic frame without a face, so every frame runs conversion +
    /// detector and, the tracker asked to run all stages, landmarks on the centred square; the eyes every
    /// `eyeInterval` frames, the hand every `handInterval`; and the analyzer on a stand-in face of the size
    /// the guidance aims for.
    struct WorstCase {
        let tracker: FaceTracker
        let frame: Frame
        let full: FrameFigures
        let analysisMs: Double

        init(
            _ models: (
                detector: TFLiteModel, landmarks: TFLiteModel, iris: TFLiteModel, hand: TFLiteModel,
                palm: TFLiteModel
            ), runs: Int
        ) throws {
            let tracker = try FaceTracker(
                detector: models.detector, landmarks: models.landmarks, iris: models.iris,
                hand: models.hand)
            // Every hand run reads two crops, as while a hand is about (the still synthetic frame would otherwise
            // read one crop a run once each crop has a reading).
            tracker.quietHands = false
            let frame = syntheticFrame()
            var analyzer = Analyzer()
            let benchFace = AnalysisBenchmark.face(frameWidth: frame.width, frameHeight: frame.height)
            var clock = frame
            full = frameTimes(runs: runs) {
                _ = tracker.processFullPipeline(clock)
                clock.timestamp += 1.0 / 30
                _ = analyzer.process(clock, faces: [benchFace])
                return (true, tracker.eyesRan, tracker.handRan)
            }
            analysisMs = medianMilliseconds(runs: runs) {
                clock.timestamp += 1.0 / 30
                _ = analyzer.process(clock, faces: [benchFace])
            }
            self.tracker = tracker
            self.frame = frame
        }

        var results: [(String, Double)] {
            [
                ("frame_full_ms", full.ms), ("frame_full_mean_ms", full.meanMs), ("frame_full_eyes_ms", full.eyesMs),
                ("frame_full_hand_ms", full.handMs), ("frame_full_cpu_ms", full.cpuMs),
                ("frame_full_eyes_cpu_ms", full.eyesCPUMs), ("analysis_full_ms", analysisMs),
            ]
        }
    }

    /// A session (`frame_*`): a photo of a face as a 640×480 YUYV frame, moved a pixel or two per frame, through
    /// `FaceTracker.process` as the wizard runs it (the detector every `detectionInterval` frames, the eyes every
    /// `eyeInterval`, the hand every `handInterval`) and the analyzer on the faces it found; and the preview's
    /// figures on the same frames.
    static func sessionRun(
        photoPath path: String,
        models: (
            detector: TFLiteModel, landmarks: TFLiteModel,
            iris: TFLiteModel, hand: TFLiteModel, palm: TFLiteModel
        ),
        runs: Int
    ) throws -> (Session, [(String, Double)]) {
        let photo = try ImageFile.read(path: path)
        let frames = SessionFrames.frames(photo: photo)
        // With the palm model as the wizard's tracker has it (its live runs with every `palmEvery`-th hand run).
        let sessionTracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks,
            iris: models.iris, hand: models.hand, palm: models.palm)
        var sessionAnalyzer = Analyzer()
        var index = 0, time = 0.0, faceFrames = 0, lastFaces: [Face] = []
        let figures = frameTimes(runs: runs) {
            var next = frames[index % frames.count]
            index += 1
            time += 1.0 / 30
            next.timestamp = time
            lastFaces = sessionTracker.process(next)
            if lastFaces.contains(where: { $0.landmarks != nil && !$0.isRejected }) { faceFrames += 1 }
            _ = sessionAnalyzer.process(next, faces: lastFaces)
            return (sessionTracker.detectorRan, sessionTracker.eyesRan, sessionTracker.handRan)
        }
        // Every frame must have been a tracked face's: otherwise the figures are of some other frame.
        guard faceFrames == index, lastFaces.first?.isTracked == true else {
            throw UsageError(Words.benchNoFace(path: path))
        }
        var analysisFrame = frames[0]
        analysisFrame.timestamp = time
        let analysisMs = medianMilliseconds(runs: runs) {
            analysisFrame.timestamp += 1.0 / 30
            _ = sessionAnalyzer.process(analysisFrame, faces: lastFaces)
        }
        let session = Session(
            figures: figures, analysisMs: analysisMs, tracker: sessionTracker,
            analyzer: sessionAnalyzer, frame: frames[index % frames.count])
        return (session, BenchPreview.figures(frames: frames, runs: min(runs, 200)))
    }

    static func sessionResults(_ session: Session) -> [(String, Double)] {
        let f = session.figures
        return [
            ("frame_ms", f.ms), ("frame_mean_ms", f.meanMs), ("frame_eyes_ms", f.eyesMs),
            ("frame_hand_ms", f.handMs), ("frame_detect_ms", f.detectMs), ("frame_cpu_ms", f.cpuMs),
            ("frame_eyes_cpu_ms", f.eyesCPUMs), ("frame_detect_cpu_ms", f.detectCPUMs),
            ("analysis_ms", session.analysisMs),
        ]
    }

    // MARK: English on purpose: --profile prints figures for docs/performance.md, quoted as printed

    /// `--profile`'s input conversions: a YUYV frame into each model's tensor, and detection and landmarks on it.
    static func printInputProfile(_ each: ModelRuns, tracker: FaceTracker, frame: Frame, runs: Int) {
        let detector = each.detector, landmarks = each.landmarks, iris = each.iris
        let detectorMap = FaceDetector.letterbox(width: frame.width, height: frame.height).map
        let meshMap = SamplingMap(centre: Point2(x: 320, y: 240), width: 300, height: 300, rotation: 0.2)
        let toDetector = medianMilliseconds(runs: runs) {
            fillTensor(
                detector.input(), width: 128, height: 128, from: frame, map: detectorMap, border: .zero,
                scale: 2 / 255, offset: -1)
        }
        let toLandmarks = medianMilliseconds(runs: runs) {
            fillTensor(
                landmarks.input(), width: 192, height: 192, from: frame, map: meshMap, border: .replicate,
                scale: 1 / 255, offset: 0)
        }
        // One eye's crop as IrisLandmarker takes it: a small turned square, mirrored (negative width).
        let eyeMap = SamplingMap(centre: Point2(x: 290, y: 215), width: -70, height: 70, rotation: 0.15)
        let toEye = medianMilliseconds(runs: runs) {
            fillTensor(
                iris.input(), width: 64, height: 64, from: frame, map: eyeMap, border: .replicate,
                scale: 1 / 255, offset: 0)
        }
        let detectOnly = medianMilliseconds(runs: runs) { _ = tracker.detector.detect(frame) }
        var points = [SIMD3<Float>](repeating: .zero, count: FaceLandmarker.count)
        let roi = FaceROI(centre: Point2(x: 320, y: 240), side: 480, rotation: 0)
        let landmarksOnly = medianMilliseconds(runs: runs) {
            _ = tracker.landmarker.landmarks(in: frame, roi: roi, into: &points)
        }
        let pair = medianMilliseconds(runs: runs) {
            detector.run(); landmarks.run()
        }
        let pairFrame = medianMilliseconds(runs: runs) {
            _ = tracker.detector.detect(frame); _ = tracker.landmarker.landmarks(in: frame, roi: roi, into: &points)
        }
        printOut("alternating detector+landmarks runs \(format(pair)) ms; on the frame \(format(pairFrame)) ms")
        printOut(
            "frame: detect \(format(detectOnly)) ms, landmarks \(format(landmarksOnly)) ms "
                + "(both with conversion)")
        printOut(
            "yuyv 640x480 -> detector tensor \(fixed(toDetector, 3)) ms, "
                + "-> landmark tensor \(fixed(toLandmarks, 3)) ms, -> eye tensor \(fixed(toEye, 3)) ms")
    }

    // MARK: the results (JSON keys, and a line in the catalogue)

    static func printResults(
        _ results: [(String, Double)], json: Bool, runs: Int, tracker: FaceTracker,
        session: Session?
    ) {
        if json {
            let fields =
                results.map { "\"\($0.0)\": \(format($0.1))" }
                + [
                    "\"eye_interval\": \(tracker.eyeInterval)", "\"hand_interval\": \(tracker.handInterval)",
                    "\"detection_interval\": \(tracker.detectionInterval)",
                    "\"detector_frames\": \(session?.figures.detectFrames ?? 0)", "\"runs\": \(runs)",
                    "\"eyes_taken_back\": \(session?.tracker.iris?.workerCounts?.takenBack ?? 0)",
                    "\"threads\": \((tracker.iris?.isParallel ?? false) ? 2 : 1)",
                ]
            printOut("{" + fields.joined(separator: ", ") + "}")
        } else {
            for (name, value) in results { printOut("\(name) \(format(value))") }
            printOut(Words.benchMedianOf(count: String(runs)))
        }
    }
}
