// MediaPipe's palm detector (palm_detection_lite.tflite / _full.tflite, mediapipe 0.10.14) around the inference
// engine, as its palm_detection_cpu.pbtxt runs it: a square region of the frame letterboxed to 192×192 in [0, 1]
// with a zero border, SSD anchors (4 layers, strides 8, 16, 16, 16, fixed size: 24×24×2 + 12×12×6 = 2016), boxes
// and 7 keypoints relative to their anchor and scaled by 192, sigmoid scores clipped to ±100, score ≥ 0.5, and
// weighted non-maximum suppression at IoU 0.3. `handROI` is the hand landmark model's crop of a palm, as
// palm_detection_detection_to_roi.pbtxt makes it (docs/calibration.md, "The palm detector").

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One palm: its score, its box and its 7 keypoints in frame pixels (MediaPipe's order: the wrist's centre, the
/// knuckles of the index, middle, ring and little fingers, then two on the thumb).
public struct PalmDetection: Sendable, Equatable {
    public var score: Float
    public var box: Rect
    public var keypoints: [Point2]

    public init(score: Float, box: Rect, keypoints: [Point2]) {
        self.score = score; self.box = box; self.keypoints = keypoints
    }

    /// The square the hand landmark model reads for this palm (MediaPipe's hand graph): turned so the wrist
    /// (keypoint 0) lies below the middle finger's knuckle (keypoint 2), moved half the box's height towards the
    /// fingers, 2.6 times the box's longer side; upright when the detection has fewer than three keypoints.
    public var handROI: FaceROI {
        guard keypoints.count > 2 else {
            return FaceROI(centre: box.centre, side: 2.6 * max(box.width, box.height), rotation: 0)
        }
        let a = keypoints[0], b = keypoints[2]
        let rotation = remainderf(.pi / 2 - atan2f(-(b.y - a.y), b.x - a.x), 2 * .pi)
        let c = box.centre
        let centre = Point2(x: c.x + 0.5 * box.height * sinf(rotation), y: c.y - 0.5 * box.height * cosf(rotation))
        return FaceROI(centre: centre, side: 2.6 * max(box.width, box.height), rotation: rotation)
    }
}

/// The palm detector on a square region of a frame.
public final class PalmDetector {
    /// Input side of the model (pixels).
    public static let inputSize = 192
    /// Anchors (and so outputs) of the model.
    public static let anchorCount = 2016
    /// Palms scoring below this (sigmoid) are dropped (`min_score_thresh`).
    public var minScore: Float = 0.5
    /// Overlap above which weighted NMS merges detections (`min_suppression_threshold`).
    public var suppressionThreshold: Float = 0.3

    let interpreter: Interpreter
    private let boxOutput: Int
    private let scoreOutput: Int
    /// Anchor centres (x, y) in tensor-normalised units, in the network's output order.
    static let anchors: [SIMD2<Float>] = makeAnchors()
    /// The palm model's rows: 18 floats (box, seven keypoints), offsets in 192ths.
    static let decoding = SSDDecoding(anchors: anchors, rowLength: 18, keypoints: 7, scale: Float(inputSize))
    /// Decoded candidates and their merge (reused: a run allocates nothing but its result).
    var candidates: [Candidate] = []
    var merged: [Candidate] = []
    /// The square of frame pixels the last `detect` read, and the palms it found there (for the record and tests).
    public private(set) var lastSquare: SamplingMap?
    public private(set) var lastPalms: [PalmDetection] = []
    /// Model runs made so far (for tests that count them).
    public private(set) var runs = 0

    /// A detection before NMS, normalised to the tensor: corners, then (x, y) of the 7 keypoints.
    typealias Candidate = SSDDetection<SIMD32<Float>>

    /// Prepares the palm model; a model of another shape is a `ModelError`. Its activations
    /// lie in `arena` when one is given (shared with models run on the same thread, one after another).
    public init(model: TFLiteModel, arena: ActivationArena? = nil) throws(ModelError) {
        interpreter = try Interpreter(model: model, arena: arena)
        let n = Self.inputSize
        let shapes = interpreter.outputShapes
        guard interpreter.inputShapes == [[1, n, n, 3]], shapes.count == 2,
            let boxes = shapes.firstIndex(of: [1, Self.anchorCount, 18]),
            let scores = shapes.firstIndex(of: [1, Self.anchorCount, 1])
        else {
            throw ModelError(
                file: model.name,
                problem: Words.modelWrongPalm(
                    inputs: "\(interpreter.inputShapes)",
                    outputs: "\(shapes)"))
        }
        boxOutput = boxes
        scoreOutput = scores
        candidates.reserveCapacity(Self.anchorCount)
        merged.reserveCapacity(Self.anchorCount)
    }

    /// SsdAnchorsCalculator with 4 layers, strides 8, 16, 16, 16 and fixed anchor size on 192×192: 2 anchors per
    /// cell of the 24×24 grid, then 6 per cell of the 12×12 grid; y outer, x, anchor inner.
    static func makeAnchors() -> [SIMD2<Float>] {
        SSDDecoding.anchors(grids: [(24, 2), (12, 6)])
    }

    /// The square of frame pixels the detector reads for `region` (the whole frame when nil): centred on it, as
    /// wide as its longer side (MediaPipe's letterbox; what lies outside the frame reads 0).
    public static func square(for region: Rect?, frameWidth: Int, frameHeight: Int) -> SamplingMap {
        let r = region ?? Rect(x: 0, y: 0, width: Float(frameWidth), height: Float(frameHeight))
        let side = max(r.width, r.height)
        return SamplingMap(centre: r.centre, width: side, height: side)
    }

    /// Palms in `region` of `frame` (the whole frame when nil), best first, in frame pixels; empty when the
    /// frame's data is too short for its format.
    public func detect(_ frame: Frame, in region: Rect? = nil) -> [PalmDetection] {
        let map = Self.square(for: region, frameWidth: frame.width, frameHeight: frame.height)
        let n = Self.inputSize
        lastSquare = map
        lastPalms = []
        guard map.width >= 1,
            fillTensor(
                interpreter.input(), width: n, height: n, from: frame, map: map,
                border: .zero, scale: 1 / 255, offset: 0)
        else { return [] }
        lastPalms = detectFromInput(map: map)
        return lastPalms
    }

    /// Runs the model on the tensor already in its input (the square `map` of a frame) and returns the palms
    /// in frame pixels.
    func detectFromInput(map: SamplingMap) -> [PalmDetection] {
        interpreter.run()
        runs += 1
        decode(regressors: interpreter.output(boxOutput), scores: interpreter.output(scoreOutput))
        weightedNonMaxSuppression()
        let side = map.width
        let x0 = map.centre.x - side / 2, y0 = map.centre.y - side / 2
        return merged.map { raw in
            let v = raw.values
            func point(_ i: Int) -> Point2 { Point2(x: x0 + v[i] * side, y: y0 + v[i + 1] * side) }
            let keypoints = (0..<7).map { point(4 + 2 * $0) }
            return PalmDetection(
                score: raw.score,
                box: Rect(
                    x: x0 + v[0] * side, y: y0 + v[1] * side,
                    width: (v[2] - v[0]) * side, height: (v[3] - v[1]) * side),
                keypoints: keypoints)
        }
    }

    /// TensorsToDetections on the 2016 anchors (`SSDDecoding.decode`: offsets scaled by 192, seven keypoints).
    func decode(regressors: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>) {
        Self.decoding.decode(regressors: regressors, scores: scores, minScore: minScore, into: &candidates)
    }

    /// NonMaxSuppressionCalculator, WEIGHTED (`SSDDecoding.weightedNonMaxSuppression`).
    func weightedNonMaxSuppression() {
        SSDDecoding.weightedNonMaxSuppression(&candidates, threshold: suppressionThreshold, into: &merged)
    }
}
