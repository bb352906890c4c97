// MediaPipe's iris landmark model around the inference engine: a rotated square per eye from the FaceMesh
// eye corners (scale 2.3), a 64×64 crop in [0, 1], the subject's left eye mirrored so the model always sees
// one orientation, and the 71 contour/brow points and 5 iris points projected back to frame pixels
// (../reference/mediapipe-models.md §1.13; MediaPipe iris_landmark_landmarks_to_roi.pbtxt).

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

    /// Prepares the iris model; a model of another shape is a `ModelError`. One image per run: a batch of two
    /// eyes measured slower on a quiet machine (docs/performance.md, third pass).
    public init(model: TFLiteModel) throws(ModelError) {
        interpreter = try Interpreter(model: model)
        let n = Self.inputSize
        let sizes = interpreter.outputShapes.map { $0.reduce(1, *) }
        guard interpreter.inputShapes == [[1, n, n, 3]], sizes.count == 2,
              let contours = sizes.firstIndex(of: Self.contourCount * 3),
              let iris = sizes.firstIndex(of: Self.irisCount * 3) else {
            throw ModelError(file: model.name, problem: Words.text(.modelWrongIris, ["inputs": "\(interpreter.inputShapes)",
                                                                         "outputs": "\(interpreter.outputShapes)"]))
        }
        contourOutput = contours
        irisOutput = iris
    }

    /// The square the model looks at for the eye whose corners are `from` and `to` (in that order: 33 → 133
    /// or 362 → 263): centred on their bounding box, 2.3 × its longer side, rotated so `from → to` is level.
    public static func roi(from: SIMD3<Float>, to: SIMD3<Float>) -> FaceROI {
        let box = Rect(x: min(from.x, to.x), y: min(from.y, to.y), width: abs(to.x - from.x),
                       height: abs(to.y - from.y))
        return FaceROI(box: box, from: Point2(x: from.x, y: from.y), to: Point2(x: to.x, y: to.y), scale: roiScale)
    }

    /// Both eyes of the face whose 468 FaceMesh landmarks are `points` (frame pixels); nil when there are
    /// fewer points or the frame's data is too short for its format. Two model runs.
    public func eyes(in frame: Frame, landmarks points: [SIMD3<Float>]) -> FaceEyes? {
        guard points.count >= FaceLandmarker.count,
              let right = eye(in: frame, roi: Self.roi(from: points[33], to: points[133]), flipped: false),
              let left = eye(in: frame, roi: Self.roi(from: points[362], to: points[263]), flipped: true) else {
            return nil
        }
        return FaceEyes(right: right, left: left)
    }

    /// The crop of `roi` (mirrored when `flipped`) into input image `image`; false when the frame's data is
    /// too short for its format.
    func fill(image: Int, from frame: Frame, roi: FaceROI, flipped: Bool) -> Bool {
        let n = Self.inputSize
        // A negative width samples the square right to left: the mirror image, pixel for pixel.
        let map = SamplingMap(centre: roi.centre, width: flipped ? -roi.side : roi.side, height: roi.side,
                              rotation: roi.rotation)
        return fillTensor(interpreter.input(0, image: image), width: n, height: n, from: frame, map: map,
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
        EyeLandmarks(contour: project(interpreter.output(contourOutput, image: image), count: Self.contourCount,
                                      roi: roi, flipped: flipped),
                     iris: project(interpreter.output(irisOutput, image: image), count: Self.irisCount, roi: roi,
                                   flipped: flipped),
                     roi: roi)
    }

    private func project(_ raw: UnsafeBufferPointer<Float>, count: Int, roi: FaceROI, flipped: Bool)
        -> [SIMD3<Float>] {
        let n = Float(Self.inputSize)
        let c = cosf(roi.rotation), s = sinf(roi.rotation)
        return (0..<count).map { i in
            // Un-mirror (x → 64 − x), then LandmarkProjection as for the face mesh.
            let x = flipped ? n - raw[3 * i] : raw[3 * i]
            let dx = x / n - 0.5, dy = raw[3 * i + 1] / n - 0.5
            return SIMD3(roi.centre.x + (c * dx - s * dy) * roi.side, roi.centre.y + (s * dx + c * dy) * roi.side,
                         raw[3 * i + 2] / n * roi.side)
        }
    }
}
