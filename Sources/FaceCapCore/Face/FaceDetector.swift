// MediaPipe BlazeFace (short range) around the inference engine: letterbox to 128×128 in [-1, 1], SSD
// anchors, box/keypoint decoding, sigmoid scores, weighted NMS and un-letterboxing
// (../reference/mediapipe-models.md §1.1–1.7, face_detection_short_range_common.pbtxt).

#if canImport(Glibc)
import Glibc
#endif

/// A decoded detection before NMS: corners then six keypoints, normalised to the letterboxed tensor.
struct RawDetection {
    var score: Float
    /// xmin, ymin, xmax, ymax, then (x, y) of keypoints 0…5.
    var values: SIMD16<Float>

    var area: Float { max(0, values[2] - values[0]) * max(0, values[3] - values[1]) }

    func iou(_ other: RawDetection) -> Float {
        let ix = min(values[2], other.values[2]) - max(values[0], other.values[0])
        let iy = min(values[3], other.values[3]) - max(values[1], other.values[1])
        guard ix > 0, iy > 0 else { return 0 }
        let intersection = ix * iy
        let union = area + other.area - intersection
        return union > 0 ? intersection / union : 0
    }
}

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
    var candidates: [RawDetection] = []
    var merged: [RawDetection] = []

    /// Prepares the BlazeFace short-range model; a model of another shape is a `ModelError`. Its activations
    /// lie in `arena` when one is given (shared with models run on the same thread, one after another).
    public init(model: TFLiteModel, arena: ActivationArena? = nil) throws(ModelError) {
        interpreter = try Interpreter(model: model, arena: arena)
        let n = Self.inputSize
        guard interpreter.inputShapes == [[1, n, n, 3]], interpreter.outputShapes.count == 2,
              interpreter.outputShapes[0] == [1, 896, 16], interpreter.outputShapes[1] == [1, 896, 1] else {
            throw ModelError(file: model.name, problem: Words.text(.modelWrongDetector, ["inputs": "\(interpreter.inputShapes)",
                                                                         "outputs": "\(interpreter.outputShapes)"]))
        }
        candidates.reserveCapacity(896)
        merged.reserveCapacity(896)
    }

    /// SsdAnchorsCalculator with 4 layers, strides 8, 16, 16, 16 and fixed anchor size: 2 anchors per
    /// cell of the 16×16 grid, then 6 per cell of the 8×8 grid; y outer, x, anchor inner.
    static func makeAnchors() -> [SIMD2<Float>] {
        var anchors: [SIMD2<Float>] = []
        for (grid, perCell) in [(16, 2), (8, 6)] {
            for y in 0..<grid {
                for x in 0..<grid {
                    for _ in 0..<perCell {
                        anchors.append(SIMD2((Float(x) + 0.5) / Float(grid), (Float(y) + 0.5) / Float(grid)))
                    }
                }
            }
        }
        return anchors
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
        guard fillTensor(interpreter.input(), width: n, height: n, from: frame, map: map, border: .zero,
                         scale: 2 / 255, offset: -1) else { return [] }
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
            return FaceDetection(score: raw.score, box: Rect(x: v[0], y: v[1], width: v[2] - v[0], height: v[3] - v[1]),
                                 keypoints: keypoints)
        }
    }

    /// TensorsToDetections: XYWH boxes and keypoints relative to the anchor, scaled by 128, sigmoid
    /// scores clipped to ±100; keeps score ≥ `minScore` and boxes of non-negative size.
    func decode(regressors: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>) {
        candidates.removeAll(keepingCapacity: true)
        let scale = Float(Self.inputSize)
        for i in 0..<896 {
            let logit = min(max(scores[i], -100), 100)
            let score = 1 / (1 + expf(-logit))
            guard score >= minScore else { continue }
            let r = regressors.baseAddress! + i * 16
            let anchor = Self.anchors[i]
            let cx = r[0] / scale + anchor.x, cy = r[1] / scale + anchor.y
            let w = r[2] / scale, h = r[3] / scale
            guard w >= 0, h >= 0 else { continue }
            var v = SIMD16<Float>(repeating: 0)
            v[0] = cx - w / 2; v[1] = cy - h / 2; v[2] = cx + w / 2; v[3] = cy + h / 2
            for k in 0..<6 {
                v[4 + 2 * k] = r[4 + 2 * k] / scale + anchor.x
                v[5 + 2 * k] = r[5 + 2 * k] / scale + anchor.y
            }
            candidates.append(RawDetection(score: score, values: v))
        }
    }

    /// NonMaxSuppressionCalculator, WEIGHTED: each cluster (IoU > threshold with the best remaining
    /// detection) becomes its score-weighted average of corners and keypoints, keeping the best score.
    func weightedNonMaxSuppression() {
        merged.removeAll(keepingCapacity: true)
        candidates.sort { $0.score > $1.score }
        var remaining = candidates.count
        while remaining > 0 {
            let top = candidates[0]
            var total: Float = 0
            var sum = SIMD16<Float>(repeating: 0)
            var kept = 0
            for i in 0..<remaining {
                let candidate = candidates[i]
                // The top always joins its own cluster: a box without area (or with a NaN) has IoU 0 with
                // itself, and would otherwise stay at the front and end the loop with the rest unmerged.
                if i == 0 || candidate.iou(top) > suppressionThreshold {
                    total += candidate.score
                    sum += candidate.values * candidate.score
                } else {
                    candidates[kept] = candidate
                    kept += 1
                }
            }
            merged.append(RawDetection(score: top.score, values: total > 0 ? sum / total : top.values))
            remaining = kept
        }
    }
}
