/// Where a frame with eyes spends its time, part by part, for `facecap bench --profile`: each part is timed on
/// its own, `runs` times, on a frame of a tracked face (the median of each), and beside them the whole frame
/// as a session runs it — the tracker with the eyes due, then the analyzer — so what the parts leave out shows.
public enum FrameProfile {
    /// One part of the frame and its median time.
    public struct Part: Sendable, Equatable {
        public var label: String
        /// Median wall time, and median CPU time by the caller's CPU clock (`facecap bench`: the process's, so
        /// the eyes' worker thread counts; what a loaded machine's waits for a core leave out).
        public var milliseconds: Double
        public var cpuMilliseconds: Double
    }

    /// The parts of a frame with eyes on `frame`, where `tracker` tracks a face (call after a `process` of a
    /// frame like it): the detector's parts (which a tracked frame runs every `detectionInterval` frames only)
    /// first, then the landmarks, the tracking, the eyes and the analyzer's measure families, the whole tracked
    /// frame with eyes (`FaceTracker.process` + `Analyzer.process`). `clock` and `cpuClock` (a CPU time; the
    /// process's counts the eyes' worker thread) in milliseconds. The tracker's state is kept as it was: it is asked
    /// to run the eyes on the whole frame and then set back.
    public static func parts(
        tracker: FaceTracker, analyzer: Analyzer, frame: Frame, runs: Int,
        clock: @escaping () -> Double, cpuClock: @escaping () -> Double
    ) -> [Part] {
        var timer = Timer(runs: runs, clock: clock, cpuClock: cpuClock)
        // The face being tracked: a frame of it with its eyes and landmarks.
        let saved = (tracker.eyeInterval, tracker.detectionInterval)
        tracker.eyeInterval = 1
        tracker.detectionInterval = 0
        defer { (tracker.eyeInterval, tracker.detectionInterval) = saved }
        guard let face = tracker.process(frame).first(where: { !$0.isRejected }), let landmarks = face.landmarks,
            let eyes = face.eyes
        else { return [] }
        detectorParts(tracker.detector, frame: frame, &timer)
        meshParts(tracker.landmarker, landmarks: landmarks, frame: frame, &timer)
        if let iris = tracker.iris { eyeParts(iris, landmarks: landmarks, frame: frame, &timer) }
        analyzerParts(analyzer, face: face, landmarks: landmarks, eyes: eyes, frame: frame, &timer)
        var clocked = frame
        var running = analyzer
        timer.time("analyzer: whole Analyzer.process (measures, motion, rules)") {
            clocked.timestamp += 1.0 / 30
            _ = running.process(clocked, faces: [face])
        }
        timer.time("whole tracked frame with eyes: FaceTracker.process + Analyzer.process") {
            clocked.timestamp += 1.0 / 30
            let found = tracker.process(frame)
            _ = running.process(clocked, faces: found)
        }
        return timer.parts
    }

    /// Times each part: a few runs to warm up, then `runs` timed ones, their medians kept in `parts`.
    struct Timer {
        let runs: Int
        let clock: () -> Double
        let cpuClock: () -> Double
        var parts: [Part] = []

        mutating func time(_ label: String, _ body: () -> Void) {
            for _ in 0..<max(2, runs / 10) { body() }
            var wall = [Double](repeating: 0, count: runs), cpu = wall
            for i in 0..<runs {
                let start = clock(), startCPU = cpuClock()
                body()
                wall[i] = clock() - start
                cpu[i] = cpuClock() - startCPU
            }
            parts.append(Part(label: label, milliseconds: Self.median(wall), cpuMilliseconds: Self.median(cpu)))
        }

        static func median(_ samples: [Double]) -> Double {
            let sorted = samples.sorted(), n = sorted.count
            return n == 0 ? 0 : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        }
    }

    private static func detectorParts(_ detector: FaceDetector, frame: Frame, _ timer: inout Timer) {
        let letterbox = FaceDetector.letterbox(width: frame.width, height: frame.height).map
        timer.time("detector: frame -> 128x128 tensor") {
            fillTensor(
                detector.interpreter.input(), width: FaceDetector.inputSize, height: FaceDetector.inputSize,
                from: frame, map: letterbox, border: .zero, scale: 2 / 255, offset: -1)
        }
        timer.time("detector: model") { detector.interpreter.run() }
        timer.time("detector: decode + NMS") {
            detector.decode(regressors: detector.interpreter.output(0), scores: detector.interpreter.output(1))
            detector.weightedNonMaxSuppression()
        }
        timer.time("detector: whole detect()") { _ = detector.detect(frame) }
    }

    private static func meshParts(
        _ mesh: FaceLandmarker, landmarks: FaceLandmarks, frame: Frame,
        _ timer: inout Timer
    ) {
        let roi = FaceROI(landmarks: landmarks.points)
        let meshMap = SamplingMap(centre: roi.centre, width: roi.side, height: roi.side, rotation: roi.rotation)
        var points = landmarks.points
        timer.time("landmarks: frame -> 192x192 tensor") {
            fillTensor(
                mesh.interpreter.input(), width: FaceLandmarker.inputSize, height: FaceLandmarker.inputSize,
                from: frame, map: meshMap, border: .replicate, scale: 1 / 255, offset: 0)
        }
        timer.time("landmarks: model") { mesh.interpreter.run() }
        timer.time("landmarks: projection of 468 points") { _ = mesh.project(roi: roi, into: &points) }
        var keypoints = [Point2](repeating: Point2(x: 0, y: 0), count: 6)
        timer.time("tracking: next ROI, keypoints, box, Face") {
            let next = FaceROI(landmarks: points)
            FaceTracker.keypoints(fromLandmarks: points, into: &keypoints)
            let detection = FaceDetection(score: 1, box: FaceTracker.bounds(points), keypoints: keypoints)
            let made = Face(
                detection: detection, landmarks: FaceLandmarks(points: points, presence: 1),
                isTracked: true)
            precondition(made.isTracked && next.side.isFinite)
        }
    }

    private static func eyeParts(
        _ iris: IrisLandmarker, landmarks: FaceLandmarks, frame: Frame,
        _ timer: inout Timer
    ) {
        let p = landmarks.points
        let right = IrisLandmarker.roi(from: p[33], to: p[133]), left = IrisLandmarker.roi(from: p[362], to: p[263])
        timer.time("eyes: two frame -> 64x64 crops") {
            _ = iris.fill(image: 0, from: frame, roi: right, flipped: false)
            _ = iris.fill(image: 0, from: frame, roi: left, flipped: true)
        }
        timer.time("eyes: iris model, two runs") {
            iris.interpreter.run(images: 1); iris.interpreter.run(images: 1)
        }
        // What the frame runs instead of the three parts above: one eye on the worker thread when parallel.
        let threads = iris.isParallel ? "two threads" : "one thread"
        timer.time("eyes: both eyes as a frame reads them (crops, models, points; \(threads))") {
            _ = iris.eyes(in: frame, landmarks: p)
        }
        timer.time("eyes: projection of 2 x 76 points") {
            _ = iris.landmarks(image: 0, roi: right, flipped: false)
            _ = iris.landmarks(image: 0, roi: left, flipped: true)
        }
    }

    /// The analyzer's measure families on the tracked face, as FaceMeasures takes them.
    private static func analyzerParts(
        _ analyzer: Analyzer, face: Face, landmarks: FaceLandmarks, eyes: FaceEyes,
        frame: Frame, _ timer: inout Timer
    ) {
        let thresholds = analyzer.thresholds
        let width = Double(frame.width), height = Double(frame.height)
        var geometry: FaceMetrics?
        timer.time("analyzer: geometry (box, pose, features, eye lids and gaze)") {
            geometry = FaceMeasures.geometry(face, index: 0, width: width, height: height, thresholds: thresholds)
        }
        let box = geometry?.box ?? FaceMeasures.faceBox(face)
        _ = frame.withLuma { reader in
            timer.time("analyzer: frame luma mean") { _ = LumaStatistics.frameMean(reader) }
            timer.time("analyzer: light on the face (luma samples)") {
                _ = LumaStatistics.light(
                    reader, region: FaceMeasures.lightRegion(box), midX: landmarks.points[1].x,
                    darkLevel: Int(thresholds.darkPixelLuma),
                    brightLevel: Int(thresholds.brightPixelLuma.rounded(.up)))
            }
            timer.time("analyzer: sharpness (Laplacian variance)") {
                _ = LumaStatistics.sharpness(reader, region: FaceMeasures.sharpRegion(box))
            }
            timer.time("analyzer: eye measures with pupil shade") {
                _ = EyeMeasures.measure(eyes, pose: geometry?.pose, thresholds: thresholds, reader: reader)
            }
        }
        timer.time("analyzer: cover (patches, chroma, mouth)") {
            _ = CoverMeasures.measure(frame: frame, points: landmarks.points, presence: landmarks.presence)
        }
        timer.time("analyzer: whole FaceMeasures.measure") {
            _ = FaceMeasures.measure(frame: frame, faces: [face], thresholds: thresholds)
        }
    }
}
