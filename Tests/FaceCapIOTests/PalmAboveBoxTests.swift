import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// Issue 32 (ft3_03, a real hand over both eyes on a small face): a hand over the eyes and forehead hides them from
/// the detector and the landmark model, whose box and landmarks slide down onto the mouth and chin; the palm's hand
/// then lies above the box's middle. It is tested against the box's middle raised by `palmBoxRaise`
/// (docs/calibration.md, "A hand over the eyes above a box that slid down").
final class PalmAboveBoxTests: XCTestCase {
    private func hull(_ points: [SIMD2<Float>]) -> [SIMD2<Float>] {
        var hull: [SIMD2<Float>] = [], sorted: [SIMD2<Float>] = []
        HandLandmarker.convexHull(points, into: &hull, sorted: &sorted)
        return hull
    }

    private func band(top: Float, bottom: Float) -> [SIMD2<Float>] {
        [SIMD2(50, top), SIMD2(350, top), SIMD2(350, bottom), SIMD2(50, bottom), SIMD2(200, (top + bottom) / 2)]
    }

    /// The box (100, 200, 200 × 200): its middle is x 150–250, y 250–350; raised half a box, y 150–250. A hand
    /// over the band above the box and its top (y 100–210) holds none of the middle and 3 of the raised grid's 5
    /// rows; a hand on the forehead well above it (y 60–165, as ft3_15's on her forehead) one row: under the cut.
    func testAHandAboveTheBoxCountsOnTheRaisedMiddleOnly() {
        let box = Rect(x: 100, y: 200, width: 200, height: 200)
        let eyes = hull(band(top: 100, bottom: 210))
        XCTAssertEqual(HandLandmarker.middleOverlap(hull: eyes, box: box), 0)
        let raised = HandLandmarker.middleOverlap(hull: eyes, box: box, raise: HandLandmarker.palmBoxRaise)
        XCTAssertEqual(raised, 0.6, accuracy: 1e-9)
        XCTAssertGreaterThanOrEqual(raised, HandLandmarker.minRaisedOverlap)
        let forehead = hull(band(top: 60, bottom: 165))
        let high = HandLandmarker.middleOverlap(hull: forehead, box: box, raise: HandLandmarker.palmBoxRaise)
        XCTAssertEqual(high, 0.2, accuracy: 1e-9)
        XCTAssertLessThan(high, HandLandmarker.minRaisedOverlap)
        // A hand over the box's own middle still counts there, raised or not.
        let mouth = hull(band(top: 240, bottom: 360))
        XCTAssertEqual(HandLandmarker.middleOverlap(hull: mouth, box: box), 1)
    }

    /// `name` (a fixture, RGB) shrunk by `scale` in the middle of a grey 640 × 480 frame: a small face, as a
    /// webcam sees a person sitting back.
    static func small(_ name: String, scale: Double) throws -> Frame {
        let photo = try ImageFile.read(path: fixturePath(name))
        XCTAssertEqual(photo.format, .rgb24)
        var shrunk = Frame.empty()
        let w = Int(Double(photo.width) * scale), h = Int(Double(photo.height) * scale)
        XCTAssertTrue(photo.resize(width: w, height: h, into: &shrunk))
        var data = [UInt8](repeating: 128, count: 640 * 480 * 3)
        let x0 = (640 - w) / 2, y0 = (480 - h) / 2
        for y in 0..<h {
            data.replaceSubrange(
                ((y0 + y) * 640 + x0) * 3..<((y0 + y) * 640 + x0 + w) * 3,
                with: shrunk.data[(y * w * 3)..<((y + 1) * w * 3)])
        }
        return Frame(format: .rgb24, width: 640, height: 480, colorRange: photo.colorRange, data: data)
    }

    /// The drawn hand over sergey's nose and eyes on a small face (`sergey_hand_v_nose_small.png`: that fixture at
    /// 0.35 in a grey 640 × 480 frame): the landmark model rejects the face, and the hand model on the crops centred
    /// on the detection reads under the cut (before, `noFace`); the palm detector finds the hand and the hand model
    /// on the palm's crop reads it over the box: `faceCovered`. His bare face, as small, is confirmed and holds no
    /// hand: none over the box raised either.
    func testAPalmOverASmallFaceTheLandmarkModelRejectsIsSaid() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let covered = try ImageFile.read(path: fixturePath("eyes/sergey_hand_v_nose_small.png"))
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, hand: models.hand, palm: models.palm)
        tracker.handInterval = 1
        let faces = tracker.process(covered)
        XCTAssertFalse(faces.isEmpty)
        XCTAssertTrue(faces.allSatisfy(\.isRejected), "the landmark model rejects the face under the hand")
        let flag = Double(try XCTUnwrap(faces.compactMap(\.hiddenByHand).max()))
        XCTAssertGreaterThanOrEqual(flag, AnalyzerThresholds().minHandOverFace)
        let box = try XCTUnwrap(faces.first(where: { $0.hiddenByHand != nil })?.detection.box)
        let hand = try HandLandmarker(model: models.hand)
        let centred = Double(try XCTUnwrap(hand.hidesFace(in: covered, box: box)))
        XCTAssertLessThan(centred, AnalyzerThresholds().minHandOverFace, "the crops centred on the box alone")
        var analyzer = Analyzer()
        XCTAssertEqual(analyzer.process(covered, faces: faces).active.first, .faceCovered)
        // Without the palm detector: the centred crops only, no face.
        let plain = try FaceTracker(detector: models.detector, landmarks: models.landmarks, hand: models.hand)
        plain.handInterval = 1
        var without = Analyzer()
        XCTAssertEqual(without.process(covered, faces: plain.process(covered)).active, [.noFace])
        // The bare face as small: confirmed, no hand over it, no palm over its box.
        let bare = try Self.small("sergey.png", scale: 0.35)
        tracker.reset()
        let face = try XCTUnwrap(tracker.process(bare).first)
        XCTAssertNotNil(face.landmarks)
        XCTAssertLessThan(Double(try XCTUnwrap(face.hand).face), 0.3)
        XCTAssertLessThan(Double(try XCTUnwrap(tracker.hiddenByHandOrPalm(bare, box: face.detection.box))), 0.3)
    }
}
