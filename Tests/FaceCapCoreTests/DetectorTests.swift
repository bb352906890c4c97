import XCTest

@testable import FaceCapCore

final class DetectorTests: XCTestCase {
    func testAnchorsFollowTheSSDLayout() {
        let anchors = FaceDetector.anchors
        XCTAssertEqual(anchors.count, 896)
        XCTAssertEqual(anchors[0], SIMD2(0.5 / 16, 0.5 / 16))
        XCTAssertEqual(anchors[1], anchors[0])  // 2 anchors per 16×16 cell
        XCTAssertEqual(anchors[2], SIMD2(1.5 / 16, 0.5 / 16))
        XCTAssertEqual(anchors[511], SIMD2(15.5 / 16, 15.5 / 16))
        XCTAssertEqual(anchors[512], SIMD2(0.5 / 8, 0.5 / 8))  // then 6 per 8×8 cell
        XCTAssertEqual(anchors[518], SIMD2(1.5 / 8, 0.5 / 8))
        XCTAssertEqual(anchors[895], SIMD2(7.5 / 8, 7.5 / 8))
    }

    func testLetterboxPadsTheShortSide() {
        let landscape = FaceDetector.letterbox(width: 640, height: 480)
        XCTAssertEqual(landscape.map, SamplingMap(centre: Point2(x: 320, y: 240), width: 640, height: 640))
        XCTAssertEqual(landscape.padX, 0)
        XCTAssertEqual(landscape.padY, 0.125, accuracy: 1e-6)
        let portrait = FaceDetector.letterbox(width: 300, height: 600)
        XCTAssertEqual(portrait.padX, 0.25, accuracy: 1e-6)
    }

    func testGoldenInputGivesTheExpectedFace() throws {
        let expected = try SergeyExpected.load()
        let detector = try FaceDetector(model: try TestData.detector)
        _ = detector.interpreter.input().update(fromContentsOf: try TestData.golden("det_input_1x128x128x3.f32"))
        let faces = detector.detectFromInput(frameWidth: 600, frameHeight: 600)
        XCTAssertEqual(faces.count, 1)
        let face = try XCTUnwrap(faces.first)
        let reference = expected.detectionInPixels
        XCTAssertEqual(face.score, reference.score, accuracy: 1e-4)
        XCTAssertGreaterThan(iou(face.box, reference.box), 0.999)
        for (a, b) in zip(face.keypoints, reference.keypoints) {
            XCTAssertEqual(a.x, b.x, accuracy: 0.05)
            XCTAssertEqual(a.y, b.y, accuracy: 0.05)
        }
    }

    func testWeightedNMSAveragesOverlapsAndKeepsTheTopScore() throws {
        let detector = try FaceDetector(model: try TestData.detector)
        func box(_ x: Float, _ score: Float) -> RawDetection {
            var v = SIMD16<Float>(repeating: 0)
            v[0] = x; v[1] = 0; v[2] = x + 1; v[3] = 1
            v[4] = x
            return RawDetection(score: score, values: v)
        }
        // Two overlapping boxes (IoU 0.82) and one far away.
        detector.candidates = [box(0.1, 0.6), box(0, 0.9), box(5, 0.7)]
        detector.weightedNonMaxSuppression()
        XCTAssertEqual(detector.merged.count, 2)
        XCTAssertEqual(detector.merged[0].score, 0.9)
        XCTAssertEqual(detector.merged[0].values[0], (0 * 0.9 + 0.1 * 0.6) / 1.5, accuracy: 1e-6)
        XCTAssertEqual(detector.merged[0].values[4], (0 * 0.9 + 0.1 * 0.6) / 1.5, accuracy: 1e-6)
        XCTAssertEqual(detector.merged[1].score, 0.7)
        XCTAssertEqual(detector.merged[1].values[0], 5)
    }

    func testWeightedNMSKeepsTheOthersWhenTheTopBoxHasNoArea() throws {
        // A zero-width top box (decode keeps w = 0) has IoU 0 with itself: it used to stay in the list,
        // the pass removed nothing and stopped, and every other face was dropped.
        let detector = try FaceDetector(model: try TestData.detector)
        func box(_ x: Float, _ width: Float, _ score: Float) -> RawDetection {
            var v = SIMD16<Float>(repeating: 0)
            v[0] = x; v[1] = 0; v[2] = x + width; v[3] = 1
            return RawDetection(score: score, values: v)
        }
        detector.candidates = [box(2, 0, 0.95), box(0, 1, 0.8), box(0.05, 1, 0.7), box(5, 1, 0.6)]
        detector.weightedNonMaxSuppression()
        XCTAssertEqual(detector.merged.map(\.score), [0.95, 0.8, 0.6])
        XCTAssertEqual(detector.merged[0].values[0], 2)
        XCTAssertEqual(detector.merged[1].values[0], (0 * 0.8 + 0.05 * 0.7) / 1.5, accuracy: 1e-6)
        // A NaN box (a model's garbage) ends up alone in its cluster, and the pass still ends.
        var nan = box(1, 1, 0.99)
        nan.values[0] = .nan
        detector.candidates = [nan, box(0, 1, 0.8)]
        detector.weightedNonMaxSuppression()
        XCTAssertEqual(detector.merged.map(\.score), [0.99, 0.8])
    }

    func testBlankFrameHasNoFace() throws {
        let detector = try FaceDetector(model: try TestData.detector)
        let frame = Frame(format: .gray, width: 320, height: 240, data: [UInt8](repeating: 90, count: 320 * 240))
        XCTAssertEqual(detector.detect(frame), [])
    }
}
