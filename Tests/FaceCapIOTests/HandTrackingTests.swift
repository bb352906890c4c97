@testable import FaceCapCore
import XCTest

@testable import FaceCapIO

/// The hand model in the live pipeline: one mouth crop every `handInterval` frames of a tracked face, the crops
/// in turn, never on a frame the eyes were read on; the analyzer holds the reading between runs.
final class HandTrackingTests: XCTestCase {
    func testTheHandModelRunsBetweenTheEyeFramesAndItsReadingHolds() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks, iris: models.iris,
                                      hand: models.hand)
        var frame = try ImageFile.read(path: fixturePath("eyes/sergey_hand_mouth_hr_2.jpg"))
        var analyzer = Analyzer()
        var handFrames: [Int] = []
        var flags: [Float] = []
        for index in 0..<20 {
            frame.timestamp = Double(index) / 30
            let faces = tracker.process(frame)
            let face = try XCTUnwrap(faces.first)
            XCTAssertFalse(tracker.eyesRan && tracker.handRan && index > 0, "frame \(index): eyes and hand together")
            XCTAssertEqual(face.handFlag != nil, tracker.handRan, "frame \(index)")
            if let flag = face.handFlag {
                handFrames.append(index)
                flags.append(flag)
            }
            // Every frame says the hand is there: read on this frame or held from the last run.
            let cover = try XCTUnwrap(analyzer.process(frame, faces: faces).metrics.face?.cover)
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(cover.handOverMouth, "frame \(index)"), 0.5, "frame \(index)")
            XCTAssertTrue(cover.regions(AnalyzerThresholds()).contains("mouth"), "frame \(index)")
        }
        // Frame 0 detects the face (both crops, with the eyes); then one run every sixth frame, off the eye frames
        // (frame 6 is one: the hand waits a frame).
        XCTAssertEqual(handFrames, [0, 7, 13, 19], "\(handFrames)")
        for flag in flags { XCTAssertGreaterThan(Double(flag), AnalyzerThresholds().minHandOverMouth) }
    }

    func testEachCropOnItsOwnAndTheirMaximum() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let hand = try HandLandmarker(model: models.hand)
        let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks)
        let frame = try ImageFile.read(path: fixturePath("eyes/sergey_hand_mouth_hr_2.jpg"))
        let points = try XCTUnwrap(tracker.process(frame).first?.landmarks?.points)
        let single = try HandLandmarker.crops.indices.map { crop in
            try XCTUnwrap(hand.flag(in: frame, roi: HandLandmarker.roi(landmarks: points, crop: crop)))
        }
        XCTAssertEqual(try XCTUnwrap(hand.handFlag(in: frame, landmarks: points)), single.max()!, accuracy: 1e-6)
        // The upright crop is 1.2 face widths, centred below the mouth; the other 1.0, turned 20°.
        let upright = HandLandmarker.roi(landmarks: points, crop: 0)
        let turned = HandLandmarker.roi(landmarks: points, crop: 1)
        XCTAssertEqual(upright.side / turned.side, 1.2, accuracy: 1e-4)
        XCTAssertEqual(turned.rotation - upright.rotation, -20 * .pi / 180, accuracy: 1e-5)
        XCTAssertGreaterThan(upright.centre.y, (points[13].y + points[14].y) / 2)
    }
}
