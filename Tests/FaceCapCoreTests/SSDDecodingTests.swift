import XCTest

@testable import FaceCapCore

/// The weighted NMS both SSD detectors use (`SSDDecoding`), on several clusters at once: each cluster becomes
/// the score-weighted mean of its members with its best score, the clusters in order of their best score, and a
/// box is merged only into the cluster whose top it overlaps (not into an earlier one it does not).
final class SSDDecodingTests: XCTestCase {
    private func detection<Values: SIMD>(
        _ x: Float, _ y: Float, _ side: Float, _ score: Float,
        as: Values.Type
    ) -> SSDDetection<Values> where Values.Scalar == Float {
        var v = Values(repeating: 0)
        v[0] = x; v[1] = y; v[2] = x + side; v[3] = y + side
        // A keypoint per detection that tells the members apart, and the last lane (past the keypoints) marked.
        v[4] = x + side / 2; v[5] = y
        v[Values.scalarCount - 1] = score
        return SSDDetection(score: score, values: v)
    }

    private func checkClusters<Values: SIMD>(_ type: Values.Type) where Values.Scalar == Float {
        // Three clusters of unit boxes, far apart, given interleaved: A at 0 (0.9, 0.6, 0.5), B at 10 (0.95, 0.7),
        // C at 20 (0.8 alone); and D at 0.6, which overlaps A's 0.5 box (x 0.35) at IoU > 0.3 but A's top (x 0) at
        // only 0.25: it is a cluster of its own, not a member of A.
        let a = [
            detection(0, 0, 1, 0.9, as: type), detection(0.1, 0.05, 1, 0.6, as: type),
            detection(0.35, 0, 1, 0.5, as: type),
        ]
        let b = [detection(10, 0, 1, 0.95, as: type), detection(10.2, 0.1, 1, 0.7, as: type)]
        let c = [detection(20, 0, 1, 0.8, as: type)]
        let d = [detection(0.6, 0, 1, 0.55, as: type)]
        XCTAssertGreaterThan(a[2].iou(d[0]), 0.3)
        XCTAssertLessThanOrEqual(a[0].iou(d[0]), 0.3)
        var candidates = [a[2], b[1], c[0], a[0], d[0], b[0], a[1]]
        var merged: [SSDDetection<Values>] = []
        SSDDecoding.weightedNonMaxSuppression(&candidates, threshold: 0.3, into: &merged)
        XCTAssertEqual(merged.map(\.score), [0.95, 0.9, 0.8, 0.55])
        for (cluster, result) in zip([b, a, c, d], merged) {
            let total = cluster.reduce(Float(0)) { $0 + $1.score }
            for lane in 0..<Values.scalarCount {
                let mean = cluster.reduce(Float(0)) { $0 + $1.values[lane] * $1.score } / total
                XCTAssertEqual(
                    result.values[lane], mean, accuracy: 1e-5, "cluster of \(cluster[0].score), lane \(lane)")
            }
        }
        // Used again, the buffers start empty.
        candidates = [c[0]]
        SSDDecoding.weightedNonMaxSuppression(&candidates, threshold: 0.3, into: &merged)
        XCTAssertEqual(merged.map(\.score), [0.8])
    }

    func testSeveralClustersMergeApartForBothDetectorsLanes() {
        checkClusters(SIMD16<Float>.self)
        checkClusters(SIMD32<Float>.self)
    }
}
