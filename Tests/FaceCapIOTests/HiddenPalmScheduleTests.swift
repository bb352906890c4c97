import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// Issue 32 item 1's cost: the reading over a face the landmark model rejects (`FaceTracker.hiddenByHandOrPalm`) runs
/// every `handFixingInterval` frames whatever the cadence, reading the palms on each run (never holding their flag: a
/// held flag would outlive the hand while the face stays unconfirmed); it ran every `handInterval` frames once the face
/// read `faceCovered` before. Counted in model runs over a scripted sequence of frames, not timed.
final class HiddenPalmScheduleTests: XCTestCase {
    /// The drawn hand over sergey's nose and eyes on a small face (the landmark model rejects it, the palm's crop
    /// names it: `PalmAboveBoxTests`), 36 frames at the ready cadence (`handInterval` 3, `handFixingInterval` 6: a
    /// hidden face's run every 6th frame, whatever the cadence, 6 runs; before, every 3rd), his bare face as small,
    /// then the hand again for 6 frames.
    func testTheHiddenFaceIsReadAtTheFixingIntervalWithItsPalms() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let covered = try ImageFile.read(path: fixturePath("eyes/sergey_hand_v_nose_small.png"))
        let bare = try PalmAboveBoxTests.small("sergey.png", scale: 0.35)
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, hand: models.hand, palm: models.palm)
        tracker.handInterval = 3
        tracker.handFixingInterval = 6
        tracker.handCadence = .ready
        XCTAssertEqual(tracker.palmEvery, 3)
        let palm = try XCTUnwrap(tracker.palm), hand = try XCTUnwrap(tracker.hand)
        let cut = Float(AnalyzerThresholds().minHandOverFace)
        var hiddenRuns = 0, palmRuns: [Int] = []
        func run(_ frame: Frame, _ index: Int) throws {
            let palmsBefore = palm.runs
            let faces = tracker.process(frame)
            guard tracker.handRan else {
                XCTAssertEqual(palm.runs, palmsBefore, "frame \(index): no hand run, no palm run")
                return
            }
            // The hand brought back over the bare face: on its first frame the landmark model may still confirm the
            // face, whose crops' looks jumped since the frame before (a run on a look's change, HandBetweenTurnsTests);
            // not a hidden face's run.
            if tracker.handRanOnLook {
                XCTAssertEqual(index, 100, "only where the hand is brought back over the confirmed face")
                XCTAssertNotNil(faces.first?.landmarks, "frame \(index)")
                // The run names a cover, or its crops named no part and the palms were read on the same frame.
                XCTAssertTrue(
                    faces.first?.hand?.namesCover == true || palm.runs > palmsBefore, "frame \(index): cover or palms")
                return
            }
            hiddenRuns += 1
            palmRuns.append(palm.runs - palmsBefore)
            // Every run names the hand over the face the palm's crop found.
            let flag = try XCTUnwrap(faces.compactMap(\.hiddenByHand).max(), "frame \(index)")
            XCTAssertGreaterThanOrEqual(flag, cut, "frame \(index): run \(hiddenRuns)")
        }
        let handsBefore = hand.runs
        for index in 0..<36 { try run(covered, index) }
        XCTAssertEqual(hiddenRuns, 6, "every handFixingInterval frames")
        // The palms read on each run, never held.
        XCTAssertEqual(palmRuns, [1, 1, 1, 1, 1, 1])
        // Three centred crops a run, and a hand run on each palm kept (one here).
        XCTAssertEqual(hand.runs - handsBefore, 6 * 3 + 6)
        // The bare face is confirmed; the hand brought back over it is read where the face was lost, then at the
        // fixing interval: 2 runs in 12 frames, each with its palms.
        let face = try XCTUnwrap(tracker.process(bare).first)
        XCTAssertNotNil(face.landmarks)
        hiddenRuns = 0
        palmRuns = []
        for index in 0..<12 { try run(covered, 100 + index) }
        XCTAssertEqual(palmRuns, [1, 1], "where the face was lost, then handFixingInterval frames later")
    }

    /// Where every frame is read (the validator's `handInterval` of 1) or a photo waits for its reading (`.capture`),
    /// each hidden run reads the palms, as before.
    func testEveryFrameAndAPhotoReadThePalmsOnEachRun() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let covered = try ImageFile.read(path: fixturePath("eyes/sergey_hand_v_nose_small.png"))
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, hand: models.hand, palm: models.palm)
        let palm = try XCTUnwrap(tracker.palm)
        tracker.handInterval = 1
        for _ in 0..<4 { _ = tracker.process(covered) }
        XCTAssertEqual(palm.runs, 4)
        tracker.reset()
        tracker.handInterval = 3
        tracker.handCadence = .capture
        for _ in 0..<4 { _ = tracker.process(covered) }
        XCTAssertEqual(palm.runs, 8)
    }
}
