// What MediaPipe's SSD detectors share after the model (BlazeFace's face detector, the palm detector):
// TensorsToDetectionsCalculator's decoding of boxes and keypoints relative to fixed-size anchors, and
// NonMaxSuppressionCalculator's WEIGHTED merge (../reference/mediapipe-models.md §1.4–1.6, palm_detection_cpu.pbtxt).

#if canImport(Glibc)
import Glibc
#endif

/// A decoded detection before NMS: its score, and its corners then keypoints normalised to the letterboxed tensor
/// (xmin, ymin, xmax, ymax, then (x, y) of each keypoint; the lanes past them zero).
struct SSDDetection<Values: SIMD> where Values.Scalar == Float {
    var score: Float
    var values: Values

    var area: Float { max(0, values[2] - values[0]) * max(0, values[3] - values[1]) }

    func iou(_ other: SSDDetection) -> Float {
        let ix = min(values[2], other.values[2]) - max(values[0], other.values[0])
        let iy = min(values[3], other.values[3]) - max(values[1], other.values[1])
        guard ix > 0, iy > 0 else { return 0 }
        let intersection = ix * iy
        let union = area + other.area - intersection
        return union > 0 ? intersection / union : 0
    }
}

/// One SSD detector's decoding: its anchors (centres, tensor-normalised, in the network's output order), the
/// floats each anchor's regressor row holds, its keypoints, and the tensor side the offsets are scaled by.
struct SSDDecoding {
    let anchors: [SIMD2<Float>]

    /// SsdAnchorsCalculator's centres with fixed anchor size: for each (grid, per cell) in turn, `perCell` anchors
    /// at the centre of every cell of the grid × grid layer; y outer, x, anchor inner (the network's order).
    static func anchors(grids: [(grid: Int, perCell: Int)]) -> [SIMD2<Float>] {
        var anchors: [SIMD2<Float>] = []
        for (grid, perCell) in grids {
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
    let rowLength: Int
    let keypoints: Int
    let scale: Float

    /// TensorsToDetections: XYWH boxes and keypoints relative to the anchor, divided by `scale`, sigmoid scores
    /// clipped to ±100; keeps score ≥ `minScore` and boxes of non-negative size, into `candidates` (emptied first).
    func decode<Values>(
        regressors: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>, minScore: Float,
        into candidates: inout [SSDDetection<Values>]
    ) {
        precondition(4 + 2 * keypoints <= Values.scalarCount, "\(keypoints) keypoints in \(Values.scalarCount) lanes")
        candidates.removeAll(keepingCapacity: true)
        for i in anchors.indices {
            let logit = min(max(scores[i], -100), 100)
            let score = 1 / (1 + expf(-logit))
            guard score >= minScore else { continue }
            let r = regressors.baseAddress! + i * rowLength
            let anchor = anchors[i]
            let cx = r[0] / scale + anchor.x, cy = r[1] / scale + anchor.y
            let w = r[2] / scale, h = r[3] / scale
            guard w >= 0, h >= 0 else { continue }
            var v = Values(repeating: 0)
            v[0] = cx - w / 2; v[1] = cy - h / 2; v[2] = cx + w / 2; v[3] = cy + h / 2
            for k in 0..<keypoints {
                v[4 + 2 * k] = r[4 + 2 * k] / scale + anchor.x
                v[5 + 2 * k] = r[5 + 2 * k] / scale + anchor.y
            }
            candidates.append(SSDDetection(score: score, values: v))
        }
    }

    /// NonMaxSuppressionCalculator, WEIGHTED: `candidates` sorted by score (best first), then each cluster (IoU >
    /// `threshold` with the best remaining detection) becomes its score-weighted average of corners and keypoints
    /// with the best score, into `merged` (emptied first). `candidates` is used as scratch.
    static func weightedNonMaxSuppression<Values>(
        _ candidates: inout [SSDDetection<Values>], threshold: Float,
        into merged: inout [SSDDetection<Values>]
    ) {
        merged.removeAll(keepingCapacity: true)
        candidates.sort { $0.score > $1.score }
        var remaining = candidates.count
        while remaining > 0 {
            let top = candidates[0]
            var total: Float = 0
            var sum = Values(repeating: 0)
            var kept = 0
            for i in 0..<remaining {
                let candidate = candidates[i]
                // The top always joins its own cluster: a box without area (or with a NaN) has IoU 0 with
                // itself, and would otherwise stay at the front and end the loop with the rest unmerged.
                if i == 0 || candidate.iou(top) > threshold {
                    total += candidate.score
                    sum += candidate.values * candidate.score
                } else {
                    candidates[kept] = candidate
                    kept += 1
                }
            }
            merged.append(SSDDetection(score: top.score, values: total > 0 ? sum / total : top.values))
            remaining = kept
        }
    }
}
