// MediaPipe's hand landmark model (hand_landmark_full.tflite) read for its hand flag only, on upright crops
// around the FaceMesh mouth: a hand held over the mouth is "a hand" to it, a bare, bearded or masked mouth is
// not. No palm detector: the crop comes from the face (docs/calibration.md, "A hand over the mouth").

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hand-landmark model's hand-presence flag on the mouth of a face.
public final class HandLandmarker {
    /// Input side of the model (pixels).
    public static let inputSize = 224
    /// The crops, each a square centred `centreShift` face widths below the middle of the mouth (landmarks
    /// 13 and 14), `side` face widths wide (234 → 454), level with the eyes (33 → 263) and then turned by
    /// `turn` radians: 1.2 face widths upright, and 1.0 turned 20° (a hand across the mouth from the image's
    /// left tilts that way). Upright crops only: a face turned sideways or upside down reads as a hand.
    public static let crops: [(side: Float, turn: Float)] = [(1.2, 0), (1.0, -20 * .pi / 180)]
    public static let centreShift: Float = 0.1

    let interpreter: Interpreter
    private let flagOutput: Int

    /// Prepares the model; a model of another shape (or without the hand flag output) is a `ModelError`.
    public init(model: TFLiteModel) throws(ModelError) {
        interpreter = try Interpreter(model: model)
        let n = Self.inputSize
        // MediaPipe's converter names the hand flag "Identity_1" (1×1, already a probability).
        let names = model.outputs.map { model.tensors[$0].name }
        guard interpreter.inputShapes == [[1, n, n, 3]], let flag = names.firstIndex(of: "Identity_1"),
              interpreter.outputShapes[flag] == [1, 1], interpreter.outputShapes.contains([1, 63]) else {
            throw ModelError(file: model.name, problem: Words.text(.modelWrongHand, ["inputs": "\(interpreter.inputShapes)",
                                                                         "outputs": "\(interpreter.outputShapes)"]))
        }
        flagOutput = flag
    }

    /// The square crop `crop` (an index into `crops`) of the face whose 468 FaceMesh landmarks are `points`.
    public static func roi(landmarks points: [SIMD3<Float>], crop: Int) -> FaceROI {
        func p(_ i: Int) -> SIMD2<Float> { SIMD2(points[i].x, points[i].y) }
        let across = p(263) - p(33)
        let span = max((across * across).sum().squareRoot(), 1e-3)
        let down = SIMD2(-across.y, across.x) / span
        let faceWidth = ((p(454) - p(234)) * (p(454) - p(234))).sum().squareRoot()
        let centre = (p(13) + p(14)) / 2 + centreShift * faceWidth * down
        let (side, turn) = crops[crop]
        return FaceROI(centre: Point2(x: centre.x, y: centre.y), side: side * faceWidth,
                       rotation: atan2f(across.y, across.x) + turn)
    }

    /// The highest hand flag (0…1) over the crops of the face with 468 landmarks `points`; nil with fewer
    /// points or when the frame's data is too short for its format. One model run per crop.
    public func handFlag(in frame: Frame, landmarks points: [SIMD3<Float>]) -> Float? {
        guard points.count >= FaceLandmarker.count else { return nil }
        var best: Float = 0
        for crop in Self.crops.indices {
            guard let flag = flag(in: frame, roi: Self.roi(landmarks: points, crop: crop)) else { return nil }
            best = max(best, flag)
        }
        return best
    }

    /// The hand flag on `roi` of `frame` (bilinear, RGB in [0, 1], zero outside the frame, as MediaPipe's
    /// hand graph crops); nil when the frame's data is too short for its format.
    public func flag(in frame: Frame, roi: FaceROI) -> Float? {
        let n = Self.inputSize
        let map = SamplingMap(centre: roi.centre, width: roi.side, height: roi.side, rotation: roi.rotation)
        guard fillTensor(interpreter.input(), width: n, height: n, from: frame, map: map, border: .zero,
                         scale: 1 / 255, offset: 0) else { return nil }
        interpreter.run()
        return interpreter.output(flagOutput)[0]
    }
}
