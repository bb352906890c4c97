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
