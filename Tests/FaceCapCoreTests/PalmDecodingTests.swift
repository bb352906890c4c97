import Foundation
import XCTest

@testable import FaceCapCore

/// `PalmDetector`'s decoding (anchors, boxes, keypoints, scores, weighted NMS) against the palms
/// tools/make_palm_golden.py decodes from LiteRT's outputs as MediaPipe's palm_detection_cpu.pbtxt does
/// (Tests/Fixtures/golden/palm_expected.json), and the hand's crop it gives a palm.
final class PalmDecodingTests: XCTestCase {
    func testPalmDecodingMatchesMediaPipesGraph() throws {
        let detector = try PalmDetector(model: try TestData.palm)
        _ = detector.interpreter.input().update(fromContentsOf: try TestData.golden("palm_input_1x192x192x3.f32"))
        // The map of the tensor itself: palms come back in tensor pixels.
        let palms = detector.detectFromInput(map: SamplingMap(centre: Point2(x: 96, y: 96), width: 192, height: 192))
        let url = TestData.fixtures.appendingPathComponent("golden/palm_expected.json")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let expected = try XCTUnwrap(json["palms"] as? [[String: Any]])
        XCTAssertFalse(expected.isEmpty, "the golden photo shows a hand")
        XCTAssertEqual(palms.count, expected.count)
        for (palm, want) in zip(palms, expected) {
            let score = try XCTUnwrap(want["score"] as? Double)
            let v = try XCTUnwrap(want["values"] as? [Double]).map { Float($0) * 192 }
            XCTAssertEqual(Double(palm.score), score, accuracy: 1e-3)
            let got =
                [palm.box.x, palm.box.y, palm.box.x + palm.box.width, palm.box.y + palm.box.height]
                + palm.keypoints.flatMap { [$0.x, $0.y] }
            XCTAssertEqual(got.count, 18)
            XCTAssertLessThanOrEqual(maxAbsDifference(got, v), 0.5, "\(got) against \(v)")
        }
    }

    /// `handROI` turns the crop so the fingers point up in it and moves it towards them, 2.6 × the box.
    func testTheHandsCropFollowsThePalm() {
        func palm(wrist: Point2, knuckle: Point2) -> PalmDetection {
            PalmDetection(
                score: 0.9, box: Rect(x: 90, y: 80, width: 20, height: 40),
                keypoints: [wrist, Point2(x: 0, y: 0), knuckle] + Array(repeating: Point2(x: 0, y: 0), count: 4))
        }
        let up = palm(wrist: Point2(x: 100, y: 120), knuckle: Point2(x: 100, y: 90)).handROI
        XCTAssertEqual(up.rotation, 0, accuracy: 1e-6)
        XCTAssertEqual(up.centre.x, 100, accuracy: 1e-4)
        XCTAssertEqual(up.centre.y, 100 - 20, accuracy: 1e-4, "half the box's height towards the fingers")
        XCTAssertEqual(up.side, 2.6 * 40, accuracy: 1e-4)
        let right = palm(wrist: Point2(x: 80, y: 100), knuckle: Point2(x: 110, y: 100)).handROI
        XCTAssertEqual(right.rotation, .pi / 2, accuracy: 1e-6)
        XCTAssertEqual(right.centre.x, 100 + 20, accuracy: 1e-4)
        XCTAssertEqual(right.centre.y, 100, accuracy: 1e-4)
        let down = palm(wrist: Point2(x: 100, y: 80), knuckle: Point2(x: 100, y: 110)).handROI
        XCTAssertEqual(abs(down.rotation), .pi, accuracy: 1e-5)
        XCTAssertEqual(down.centre.y, 100 + 20, accuracy: 1e-4)
    }

    func testAModelOfAnotherShapeIsRefused() throws {
        XCTAssertThrowsError(try PalmDetector(model: try TestData.hand)) { error in
            XCTAssertTrue("\(error)".contains("palm"), "\(error)")
        }
    }
}
