// MediaPipe's iris landmark model around the inference engine: a rotated square per eye from the FaceMesh
// eye corners (scale 2.3), a 64×64 crop in [0, 1], the subject's left eye mirrored so the model always sees
// one orientation, and the 71 contour/brow points and 5 iris points projected back to frame pixels
// (../reference/mediapipe-models.md §1.13; MediaPipe iris_landmark_landmarks_to_roi.pbtxt).

internal import CKernels

#if canImport(Glibc)
import Glibc
#endif

/// The iris model's points for one eye, in frame pixels (z in the same scale, relative depth).
///
/// `contour` holds 71 points: 0…8 the lower lid from the outer corner (0) to the inner corner (8), 9…15 the
/// upper lid from outer to inner without the corners, then four rings of "halo" points around the eye and the
/// brow (MediaPipe update_face_landmarks_calculator.cc lists them). Point `i` of the lower lid (1…7) lies
/// under upper-lid point `i + 8`. `iris` holds the iris centre and then four points on the iris edge.
public struct EyeLandmarks: Sendable, Equatable {
    public var contour: [SIMD3<Float>]
    public var iris: [SIMD3<Float>]
    /// The square the model looked at.
    public var roi: FaceROI

    public init(contour: [SIMD3<Float>], iris: [SIMD3<Float>], roi: FaceROI) {
        self.contour = contour; self.iris = iris; self.roi = roi
    }

    /// Outer and inner eye corner (contour points 0 and 8).
    public var outerCorner: SIMD3<Float> { contour[0] }
    public var innerCorner: SIMD3<Float> { contour[8] }
    public var irisCentre: SIMD3<Float> { iris[0] }
}

/// Both eyes of one face. `right` is the subject's right eye (FaceMesh 33 → 133, the image-left eye of an
/// unmirrored photo), `left` the subject's left eye (362 → 263).
public struct FaceEyes: Sendable, Equatable {
    public var right: EyeLandmarks
    public var left: EyeLandmarks
    public init(right: EyeLandmarks, left: EyeLandmarks) { self.right = right; self.left = left }
}

/// The iris landmark model (`iris_landmark.tflite`).
public final class IrisLandmarker {
    /// Input side of the model (pixels).
    public static let inputSize = 64
    /// Eye-contour and brow points, and iris points, per eye.
    public static let contourCount = 71
    public static let irisCount = 5
    /// The ROI is this many times the corner-to-corner distance (MediaPipe's iris graph).
    public static let roiScale: Float = 2.3

    let interpreter: Interpreter
    private let contourOutput: Int
    private let irisOutput: Int
    /// The thread that reads the subject's left eye while the calling thread reads the right one (`eyes`), when
    /// the eyes run in parallel.
    let worker: EyeWorker?

    /// Whether `eyes` runs the two eyes at once, on the calling thread and a worker thread of this landmarker.
    public var isParallel: Bool { worker != nil }

    /// Eyes the worker thread read so far, and eyes the calling thread took back from it because it had not begun
    /// them when the other eye was done (its core busy); nil without a worker.
    public var workerCounts: (ran: Int, takenBack: Int)? { worker?.counts }

    /// Whether landmarkers run the two eyes in parallel unless told otherwise: on a machine with more than one
    /// core the process may use, and not with `FACECAP_ONE_THREAD` set (any value; for measuring, and a way out).
    /// (The cores of the process's CPU affinity, as `taskset` or a container's cpuset leaves it.)
    public static let parallelByDefault = runsInParallel(
        oneThread: getenv("FACECAP_ONE_THREAD") != nil,
        cores: usableCores)

    /// The cores this process may run on: its CPU affinity (`taskset`, a container's cpuset), not the machine's
    /// online count (`ProcessInfo.activeProcessorCount`), which `taskset -c 0` leaves at the machine's.
    public static var usableCores: Int { Int(fc_usable_cpus()) }

    /// The choice `parallelByDefault` makes for a setting and a core count.
    static func runsInParallel(oneThread: Bool, cores: Int) -> Bool { !oneThread && cores > 1 }

    /// Prepares the iris model; a model of another shape is a `ModelError`. One image per run: a batch of two
    /// eyes measured slower on a quiet machine (docs/performance.md, third pass). With `parallel`, a second
    /// interpreter of the model (sharing this one's packed weights) on a thread of its own reads one of the two
    /// eyes of `eyes`; that thread ends with the landmarker. Without it, or when no thread can be started, both
    /// eyes run on the calling thread, one after the other.
    public convenience init(model: TFLiteModel, parallel: Bool = IrisLandmarker.parallelByDefault)
        throws(ModelError)
    {
        let helper = parallel ? try IrisLandmarker(model: model, worker: nil) : nil
        try self.init(model: model, worker: helper.flatMap { EyeWorker(landmarker: $0) })
    }

    private init(model: TFLiteModel, worker: EyeWorker?) throws(ModelError) {
        self.worker = worker
        interpreter = try Interpreter(model: model)
        let n = Self.inputSize
        let sizes = interpreter.outputShapes.map { $0.reduce(1, *) }
        guard interpreter.inputShapes == [[1, n, n, 3]], sizes.count == 2,
            let contours = sizes.firstIndex(of: Self.contourCount * 3),
            let iris = sizes.firstIndex(of: Self.irisCount * 3)
        else {
            throw ModelError(
                file: model.name,
                problem: Words.modelWrongIris(
                    inputs: "\(interpreter.inputShapes)",
                    outputs: "\(interpreter.outputShapes)"))
        }
        contourOutput = contours
        irisOutput = iris
    }

    /// The square the model looks at for the eye whose corners are `from` and `to` (in that order: 33 → 133
    /// or 362 → 263): centred on their bounding box, 2.3 × its longer side, rotated so `from → to` is level.
    public static func roi(from: SIMD3<Float>, to: SIMD3<Float>) -> FaceROI {
        let box = Rect(
            x: min(from.x, to.x), y: min(from.y, to.y), width: abs(to.x - from.x),
            height: abs(to.y - from.y))
        return FaceROI(box: box, from: Point2(x: from.x, y: from.y), to: Point2(x: to.x, y: to.y), scale: roiScale)
    }

    /// Both eyes of the face whose 468 FaceMesh landmarks are `points` (frame pixels); nil when there are
    /// fewer points or the frame's data is too short for its format. Two model runs: at once when the landmarker
    /// is parallel (the left eye on the worker thread), else one after the other; the points are the same.
    public func eyes(in frame: Frame, landmarks points: [SIMD3<Float>]) -> FaceEyes? {
        guard points.count >= FaceLandmarker.count else { return nil }
        let rightROI = Self.roi(from: points[33], to: points[133]),
            leftROI = Self.roi(from: points[362], to: points[263])
        guard let worker else {
            guard let right = eye(in: frame, roi: rightROI, flipped: false),
                let left = eye(in: frame, roi: leftROI, flipped: true)
            else { return nil }
            return FaceEyes(right: right, left: left)
        }
        worker.start(EyeWorker.Job(frame: frame, roi: leftROI, flipped: true))
        let right = eye(in: frame, roi: rightROI, flipped: false)
        // Always finished, even when the right eye failed: the worker must be idle before the next frame. An eye the
        // worker has not begun (its core busy) is read here, by the same code: the same points.
        let left: EyeLandmarks?
        switch worker.finish() {
        case .read(let eye): left = eye
        case .takenBack(let job): left = right == nil ? nil : eye(in: job.frame, roi: job.roi, flipped: job.flipped)
        }
        guard let right, let left else { return nil }
        return FaceEyes(right: right, left: left)
    }

    /// The crop of `roi` (mirrored when `flipped`) into input image `image`; false when the frame's data is
    /// too short for its format.
    func fill(image: Int, from frame: Frame, roi: FaceROI, flipped: Bool) -> Bool {
        let n = Self.inputSize
        // A negative width samples the square right to left: the mirror image, pixel for pixel.
        let map = SamplingMap(
            centre: roi.centre, width: flipped ? -roi.side : roi.side, height: roi.side,
            rotation: roi.rotation)
        return fillTensor(
            interpreter.input(0, image: image), width: n, height: n, from: frame, map: map,
            border: .replicate, scale: 1 / 255, offset: 0)
    }

    /// Runs the model on `roi` of `frame`, mirrored horizontally when `flipped` (the subject's left eye), and
    /// returns the points in frame pixels; nil when the frame's data is too short for its format.
    public func eye(in frame: Frame, roi: FaceROI, flipped: Bool) -> EyeLandmarks? {
        guard fill(image: 0, from: frame, roi: roi, flipped: flipped) else { return nil }
        return eyeFromInput(roi: roi, flipped: flipped)
    }

    /// Runs the model on the crop already in its input (image 0) and projects the points through `roi`.
    func eyeFromInput(roi: FaceROI, flipped: Bool) -> EyeLandmarks {
        interpreter.run(images: 1)
        return landmarks(image: 0, roi: roi, flipped: flipped)
    }

    /// The points of input image `image` after a run, projected through `roi`.
    func landmarks(image: Int, roi: FaceROI, flipped: Bool) -> EyeLandmarks {
        EyeLandmarks(
            contour: project(
                interpreter.output(contourOutput, image: image), count: Self.contourCount,
                roi: roi, flipped: flipped),
            iris: project(
                interpreter.output(irisOutput, image: image), count: Self.irisCount, roi: roi,
                flipped: flipped),
            roi: roi)
    }

    private func project(_ raw: UnsafeBufferPointer<Float>, count: Int, roi: FaceROI, flipped: Bool)
        -> [SIMD3<Float>]
    {
        let n = Float(Self.inputSize)
        let c = cosf(roi.rotation), s = sinf(roi.rotation)
        return (0..<count).map { i in
            // Un-mirror (x → 64 − x), then LandmarkProjection as for the face mesh.
            let x = flipped ? n - raw[3 * i] : raw[3 * i]
            let dx = x / n - 0.5, dy = raw[3 * i + 1] / n - 0.5
            return SIMD3(
                roi.centre.x + (c * dx - s * dy) * roi.side, roi.centre.y + (s * dx + c * dy) * roi.side,
                raw[3 * i + 2] / n * roi.side)
        }
    }
}
