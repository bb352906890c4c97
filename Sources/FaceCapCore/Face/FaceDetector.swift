// MediaPipe BlazeFace (short range) around the inference engine: letterbox to 128×128 in [-1, 1], SSD
// anchors, box/keypoint decoding, sigmoid scores, weighted NMS and un-letterboxing
// (../reference/mediapipe-models.md §1.1–1.7, face_detection_short_range_common.pbtxt).

#if canImport(Glibc)
import Glibc
#endif

/// A decoded face before NMS: corners then six keypoints, normalised to the letterboxed tensor.
typealias RawDetection = SSDDetection<SIMD16<Float>>

/// The BlazeFace short-range face detector.
public final class FaceDetector {
    /// Input side of the model (pixels).
    public static let inputSize = 128
    /// Faces scoring below this (sigmoid) are dropped (MediaPipe `min_score_thresh`).
    public var minScore: Float = 0.5
    /// Overlap above which weighted NMS merges detections (`min_suppression_threshold`).
    public var suppressionThreshold: Float = 0.3

    let interpreter: Interpreter
    /// Anchor centres (x, y) in tensor-normalised units, in the network's output order.
    static let anchors: [SIMD2<Float>] = makeAnchors()
    /// BlazeFace's rows: 16 floats (box, six keypoints), offsets in 128ths.
    static let decoding = SSDDecoding(anchors: anchors, rowLength: 16, keypoints: 6, scale: Float(inputSize))
    var candidates: [RawDetection] = []
    var merged: [RawDetection] = []

    /// Prepares the BlazeFace short-range model; a model of another shape is a `ModelError`. Its activations
    /// lie in `arena` when one is given (shared with models run on the same thread, one after another).
    public init(model: TFLiteModel, arena: ActivationArena? = nil) throws(ModelError) {
        interpreter = try Interpreter(model: model, arena: arena)
        let n = Self.inputSize
        guard interpreter.inputShapes == [[1, n, n, 3]], interpreter.outputShapes.count == 2,
            interpreter.outputShapes[0] == [1, 896, 16], interpreter.outputShapes[1] == [1, 896, 1]
        else {
            throw ModelError(
                file: model.name,
                problem: Words.modelWrongDetector(
                    inputs: "\(interpreter.inputShapes)",
                    outputs: "\(interpreter.outputShapes)"))
        }
        candidates.reserveCapacity(896)
        merged.reserveCapacity(896)
    }

    /// SsdAnchorsCalculator with 4 layers, strides 8, 16, 16, 16 and fixed anchor size: 2 anchors per
    /// cell of the 16×16 grid, then 6 per cell of the 8×8 grid; y outer, x, anchor inner.
    static func makeAnchors() -> [SIMD2<Float>] {
        SSDDecoding.anchors(grids: [(16, 2), (8, 6)])
    }

    /// The letterbox: the centred square of side max(W, H) that is resampled to the tensor, and the
    /// padding fractions it adds (MediaPipe PadRoi with keep_aspect_ratio).
    public static func letterbox(width: Int, height: Int) -> (map: SamplingMap, padX: Float, padY: Float) {
        let w = Float(width), h = Float(height), side = max(w, h)
        let map = SamplingMap(centre: Point2(x: w / 2, y: h / 2), width: side, height: side)
        return (map, (1 - w / side) / 2, (1 - h / side) / 2)
    }

    /// Faces in `frame`, best first, in frame pixels.
    public func detect(_ frame: Frame) -> [FaceDetection] {
        let (map, _, _) = Self.letterbox(width: frame.width, height: frame.height)
        let n = Self.inputSize
        guard
            fillTensor(
                interpreter.input(), width: n, height: n, from: frame, map: map, border: .zero,
                scale: 2 / 255, offset: -1)
        else { return [] }
        return detectFromInput(frameWidth: frame.width, frameHeight: frame.height)
    }

    /// Runs the model on the tensor already in its input (the letterboxed `frameWidth × frameHeight`
    /// frame) and returns the faces in frame pixels.
    func detectFromInput(frameWidth: Int, frameHeight: Int) -> [FaceDetection] {
        let (_, padX, padY) = Self.letterbox(width: frameWidth, height: frameHeight)
        interpreter.run()
        decode(regressors: interpreter.output(0), scores: interpreter.output(1))
        weightedNonMaxSuppression()
        let sx = 1 - 2 * padX, sy = 1 - 2 * padY
        let fw = Float(frameWidth), fh = Float(frameHeight)
        return merged.map { raw in
            var v = raw.values
            for i in stride(from: 0, to: 16, by: 2) {
                v[i] = (v[i] - padX) / sx * fw
                v[i + 1] = (v[i + 1] - padY) / sy * fh
            }
            let keypoints = (0..<6).map { Point2(x: v[4 + 2 * $0], y: v[5 + 2 * $0]) }
            return FaceDetection(
                score: raw.score, box: Rect(x: v[0], y: v[1], width: v[2] - v[0], height: v[3] - v[1]),
                keypoints: keypoints)
        }
    }

    /// TensorsToDetections on the 896 anchors (`SSDDecoding.decode`: offsets scaled by 128, six keypoints).
    func decode(regressors: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>) {
        Self.decoding.decode(regressors: regressors, scores: scores, minScore: minScore, into: &candidates)
    }

    /// NonMaxSuppressionCalculator, WEIGHTED (`SSDDecoding.weightedNonMaxSuppression`).
    func weightedNonMaxSuppression() {
        SSDDecoding.weightedNonMaxSuppression(&candidates, threshold: suppressionThreshold, into: &merged)
    }
}
