// MediaPipe FaceMesh (468 landmarks) around the inference engine: rotated square ROI, 192×192 crop in
// [0, 1], projection of the landmarks back to frame pixels, face-presence flag
// (../reference/mediapipe-models.md §1.8–1.11).

#if canImport(Glibc)
import Glibc
#endif

/// A rotated square region of a frame, in pixels: what the landmark model looks at.
public struct FaceROI: Sendable, Equatable {
    /// Centre of the square (pixels).
    public var centre: Point2
    /// Side of the square (pixels).
    public var side: Float
    /// Clockwise rotation in radians (y down), in [-π, π).
    public var rotation: Float

    /// A square of `side` pixels around `centre`, turned clockwise by `rotation` radians.
    public init(centre: Point2, side: Float, rotation: Float) {
        self.centre = centre; self.side = side; self.rotation = rotation
    }

    /// NormalizeRadians: a − 2π·⌊(a + π) / 2π⌋.
    static func normalise(_ angle: Float) -> Float {
        angle - 2 * Float.pi * ((angle + Float.pi) / (2 * Float.pi)).rounded(FloatingPointRoundingRule.down)
    }

    /// The square MediaPipe derives from an axis-aligned box and two reference points: centred on the
    /// box, side = `scale` × the box's longer side, rotated so that `from → to` is horizontal.
    public init(box: Rect, from: Point2, to: Point2, scale: Float = 1.5) {
        let angle = atan2f(to.y - from.y, to.x - from.x)
        self.init(centre: box.centre, side: scale * max(box.width, box.height), rotation: Self.normalise(angle))
    }

    /// From a detection: box centre, eye keypoints 0 → 1 for the rotation, scale 1.5
    /// (face_detection_front_detection_to_roi.pbtxt).
    /// A detection without both eye keypoints (not one from `FaceDetector`) gets an upright square rather
    /// than a trap: a detection is a public value anyone can build.
    public init(detection: FaceDetection) {
        let k = detection.keypoints
        guard k.count >= 2 else {
            self.init(box: detection.box, from: Point2(x: 0, y: 0), to: Point2(x: 1, y: 0))
            return
        }
        self.init(box: detection.box, from: k[0], to: k[1])
    }

    /// From the previous frame's landmarks: their bounding box, rotation from landmark 33 to 263, scale 1.5
    /// (face_landmark_landmarks_to_roi.pbtxt).
    /// Fewer than 468 points (not the landmark model's output) give an upright square around them.
    public init(landmarks points: [SIMD3<Float>]) {
        guard points.count >= FaceLandmarker.count else {
            self.init(box: FaceTracker.bounds(points), from: Point2(x: 0, y: 0), to: Point2(x: 1, y: 0))
            return
        }
        self.init(
            box: FaceTracker.bounds(points), from: Point2(x: points[33].x, y: points[33].y),
            to: Point2(x: points[263].x, y: points[263].y))
    }
}

/// The FaceMesh landmark model.
public final class FaceLandmarker {
    /// Input side of the model (pixels).
    public static let inputSize = 192
    /// Number of landmarks.
    public static let count = 468
    /// Presence logits below this mean "no face" (raw ≥ 0 ⇔ sigmoid ≥ 0.5, MediaPipe's rule).
    public var minPresence: Float = 0

    let interpreter: Interpreter

    /// Prepares the FaceMesh model; a model of another shape is a `ModelError`. Its activations
    /// lie in `arena` when one is given (shared with models run on the same thread, one after another).
    public init(model: TFLiteModel, arena: ActivationArena? = nil) throws(ModelError) {
        interpreter = try Interpreter(model: model, arena: arena)
        let n = Self.inputSize
        guard interpreter.inputShapes == [[1, n, n, 3]], interpreter.outputShapes.count == 2,
            interpreter.outputShapes[0].reduce(1, *) == Self.count * 3,
            interpreter.outputShapes[1].reduce(1, *) == 1
        else {
            throw ModelError(
                file: model.name,
                problem: Words.modelWrongLandmarks(
                    inputs: "\(interpreter.inputShapes)",
                    outputs: "\(interpreter.outputShapes)"))
        }
    }

    /// Runs the model on `roi` of `frame` and writes the 468 landmarks (frame pixels; z in the same
    /// scale) into `points`, which must already hold 468 elements. Returns the presence logit, or nil
    /// when the frame's data is too short for its format.
    public func landmarks(in frame: Frame, roi: FaceROI, into points: inout [SIMD3<Float>]) -> Float? {
        let n = Self.inputSize
        let map = SamplingMap(centre: roi.centre, width: roi.side, height: roi.side, rotation: roi.rotation)
        guard points.count == Self.count,
            fillTensor(
                interpreter.input(), width: n, height: n, from: frame, map: map, border: .replicate,
                scale: 1 / 255, offset: 0)
        else { return nil }
        return landmarksFromInput(roi: roi, into: &points)
    }

    /// Runs the model on the crop already in its input and projects the landmarks through `roi`.
    func landmarksFromInput(roi: FaceROI, into points: inout [SIMD3<Float>]) -> Float {
        interpreter.run()
        return project(roi: roi, into: &points)
    }

    /// The landmarks of the last run projected through `roi` into `points`; the presence logit.
    func project(roi: FaceROI, into points: inout [SIMD3<Float>]) -> Float {
        let n = Self.inputSize
        let raw = interpreter.output(0)
        let c = cosf(roi.rotation), s = sinf(roi.rotation)
        let scale = roi.side / Float(n)
        for i in 0..<Self.count {
            // LandmarkProjectionCalculator: offset from the crop centre, rotated back into the frame.
            let dx = raw[3 * i] / Float(n) - 0.5, dy = raw[3 * i + 1] / Float(n) - 0.5
            points[i] = SIMD3(
                roi.centre.x + (c * dx - s * dy) * roi.side,
                roi.centre.y + (s * dx + c * dy) * roi.side,
                raw[3 * i + 2] * scale)
        }
        return interpreter.output(1)[0]
    }
}
