@testable import FaceCapCore
import XCTest

@testable import FaceCapIO

/// The palm detector on real photos (Tests/Fixtures): obama.jpg's hands on his crossed arms are found where they
/// are, from the whole frame and from regions of it; his face, and two photos without a hand, show none.
final class PalmDetectionTests: XCTestCase {
    private func detector() throws -> PalmDetector { try PalmDetector(model: try ModelFiles.load(ModelFiles.palm)) }

    /// His left hand lies on his right sleeve, in the photo's lower right (455 × 569: about x 270–340, y 400–480).
    private let hand = Rect(x: 250, y: 380, width: 110, height: 120)

    private func inside(_ p: Point2, _ r: Rect) -> Bool {
        p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height
    }

    func testARealHandIsFoundWhereItIs() throws {
        let palms = try detector().detect(try ImageFile.read(path: fixturePath("images/obama.jpg")))
        let best = try XCTUnwrap(palms.first, "no palm")
        XCTAssertGreaterThanOrEqual(best.score, 0.6)
        XCTAssertTrue(inside(best.box.centre, hand), "\(best.box)")
        XCTAssertTrue(best.box.width > 15 && best.box.width < 100, "\(best.box)")
        XCTAssertTrue(best.keypoints.allSatisfy { inside($0, Rect(x: 200, y: 330, width: 210, height: 220)) },
                      "\(best.keypoints)")
    }

    func testARegionOfTheFrameFindsTheSamePalmInFramePixels() throws {
        let frame = try ImageFile.read(path: fixturePath("images/obama.jpg"))
        let palm = try detector()
        let whole = try XCTUnwrap(palm.detect(frame).first)
        // The lower three quarters of the photo, and a square around the hands that reaches past its right edge:
        // the same hand, in the frame's pixels.
        for region in [Rect(x: 0, y: 150, width: 455, height: 419), Rect(x: 200, y: 300, width: 255, height: 269)] {
            let near = try XCTUnwrap(palm.detect(frame, in: region).first { inside($0.box.centre, hand) }, "\(region)")
            XCTAssertGreaterThanOrEqual(near.score, 0.5, "\(region)")
            XCTAssertEqual(near.box.centre.x, whole.box.centre.x, accuracy: 0.25 * whole.box.width, "\(region)")
            XCTAssertEqual(near.box.centre.y, whole.box.centre.y, accuracy: 0.25 * whole.box.height, "\(region)")
        }
        // His face (the upper middle) holds no palm.
        XCTAssertEqual(palm.detect(frame, in: Rect(x: 120, y: 20, width: 200, height: 220)).count, 0)
    }

    /// Two bare faces (a palm detector alone reads some bare faces as palms: docs/calibration.md, "The palm
    /// detector"; these two it does not).
    func testPhotosWithoutAHandShowNoPalm() throws {
        let palm = try detector()
        for name in ["sergey.png", "images/grace_hopper.jpg"] {
            XCTAssertEqual(palm.detect(try ImageFile.read(path: fixturePath(name))).map(\.score), [], name)
        }
    }
}

/// The palm detector where a single frame decides (`FaceTracker.palm`, `palmReading`): a photo read with every crop
/// also reads the palms on a square of `palmRegionSide` face widths around the face; bare faces stay uncovered.
final class PalmTrackingTests: XCTestCase {
    private func tracker() throws -> (FaceTracker, PalmDetector) {
        let models = try ModelFiles.loadAllFaceModels()
        let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks, iris: models.iris,
                                      hand: models.hand)
        let palm = try PalmDetector(model: try ModelFiles.load(ModelFiles.palm))
        tracker.palm = palm
        tracker.handInterval = 1
        return (tracker, palm)
    }

    func testAPhotoReadsThePalmsAroundItsFace() throws {
        let (tracker, palm) = try tracker()
        for name in ["sergey.png", "images/grace_hopper.jpg", "images/obama.jpg"] {
            tracker.reset()
            let face = try XCTUnwrap(tracker.process(try ImageFile.read(path: fixturePath(name))).first, name)
            let points = try XCTUnwrap(face.landmarks?.points, name)
            let square = try XCTUnwrap(palm.lastSquare, "\(name): the palm detector did not run")
            let across = SIMD2(points[454].x - points[234].x, points[454].y - points[234].y)
            let faceWidth = (across * across).sum().squareRoot()
            XCTAssertEqual(square.width, FaceTracker.palmRegionSide * faceWidth, accuracy: 1, name)
            XCTAssertEqual(square.centre.x, (points[234].x + points[454].x + points[10].x + points[152].x) / 4,
                           accuracy: 1, name)
            // Bare faces: no palm around them reads as a hand over a part (obama's hands lie far below his face).
            let reading = try XCTUnwrap(face.hand, name)
            XCTAssertLessThan(reading.face, 0.6, name)
            XCTAssertTrue(reading.parts.isEmpty, "\(name): \(reading.parts)")
        }
    }

    func testWithoutAPalmDetectorNothingIsRead() throws {
        let (tracker, palm) = try tracker()
        tracker.palm = nil
        _ = tracker.process(try ImageFile.read(path: fixturePath("sergey.png")))
        XCTAssertNil(palm.lastSquare)
    }
}
