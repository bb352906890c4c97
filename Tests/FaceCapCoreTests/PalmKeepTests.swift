import XCTest

@testable import FaceCapCore

/// Which palms around a face get a hand-model run (issue 32, "Palms pushed off a part" in docs/calibration.md):
/// a palm of at least `minPalmSide` (0.45) face widths from `minPalmScore` (0.7), or a surer one (`minStrongPalmScore`,
/// 0.9) from `minStrongPalmSide` (0.40). The figures are the real-photo set's: the constructed partial covers that
/// read `ready` held palms of 0.41–0.44 face widths at 0.90–0.97; tom_hanks's bare face, whose palms the hand model
/// reads as a hand over it, 0.76 at 0.41 and 0.88 at 0.38.
final class PalmKeepTests: XCTestCase {
    private func palm(score: Float, side: Float, faceWidth: Float = 200) -> PalmDetection {
        PalmDetection(
            score: score, box: Rect(x: 0, y: 0, width: side * faceWidth, height: 0.8 * side * faceWidth),
            keypoints: [])
    }

    func testASurerPalmIsReadFromASmallerSide() {
        let kept: [(score: Float, side: Float)] = [
            (0.7, 0.45), (0.75, 0.6), (0.92, 0.41), (0.95, 0.43), (0.97, 0.41),
            (0.9, 0.40),
        ]
        let dropped: [(score: Float, side: Float)] = [
            (0.76, 0.41), (0.88, 0.38), (0.83, 0.39), (0.69, 0.6),
            (0.97, 0.39), (0.89, 0.44),
        ]
        for (score, side) in kept {
            XCTAssertTrue(FaceTracker.keepsPalm(palm(score: score, side: side), faceWidth: 200), "\(score) at \(side)")
        }
        for (score, side) in dropped {
            XCTAssertFalse(FaceTracker.keepsPalm(palm(score: score, side: side), faceWidth: 200), "\(score) at \(side)")
        }
        // The longer side counts, whichever it is, in face widths.
        let tall = PalmDetection(score: 0.95, box: Rect(x: 0, y: 0, width: 10, height: 0.42 * 300), keypoints: [])
        XCTAssertTrue(FaceTracker.keepsPalm(tall, faceWidth: 300))
        XCTAssertFalse(FaceTracker.keepsPalm(tall, faceWidth: 330))
    }
}
