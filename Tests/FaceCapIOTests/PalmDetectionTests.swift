import XCTest

@testable import FaceCapCore
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
        XCTAssertTrue(
            best.keypoints.allSatisfy { inside($0, Rect(x: 200, y: 330, width: 210, height: 220)) },
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
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
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
            XCTAssertEqual(
                square.centre.x, (points[234].x + points[454].x + points[10].x + points[152].x) / 4,
                accuracy: 1, name)
            // Bare faces: no palm around them reads as a hand over a part (obama's hands lie far below his face).
            let reading = try XCTUnwrap(face.hand, name)
            XCTAssertLessThan(reading.face, 0.6, name)
            XCTAssertTrue(reading.parts.isEmpty, "\(name): \(reading.parts)")
        }
    }

    /// The live loop (issue 32, palms in the wizard): a tracked face's hand runs that read some crops read the palms
    /// on every `palmEvery`-th of them (the turns; a run on a look's change between reads them only where its crops
    /// name no part), never between; their reading is held with the face until the next, and forgotten with it; a
    /// frame that reads every crop reads the palms itself and starts the count again.
    func testTheLiveLoopReadsThePalmsEveryFewHandRunsAndHoldsTheirReading() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand, palm: models.palm)
        let palm = try XCTUnwrap(tracker.palm)
        let bare = try ImageFile.read(path: fixturePath("sergey.png"))
        let covered = try ImageFile.read(path: fixturePath("eyes/sergey_hand_d_cheek.jpg"))
        XCTAssertEqual(tracker.palmEvery, 3)
        var someRuns = 0, sincePalm = 0
        for index in 0..<120 {
            let frame = index < 60 ? bare : covered
            let before = tracker.palmsRead
            // A held palm reading that says a hand is about is read again at the next hand run, whatever the count.
            let handHeld = tracker.lastPalm?.saysHandAbout == true
            let face = try XCTUnwrap(tracker.process(frame).first, "frame \(index)")
            let read = tracker.palmsRead - before
            if index == 0 {
                // Detected anew: every crop, and the palms with them; the held reading starts empty.
                XCTAssertEqual(tracker.handCropsRead, HandLandmarker.crops.count)
                XCTAssertNotNil(palm.lastSquare)
                XCTAssertNil(tracker.lastPalm)
                continue
            }
            guard tracker.handRan else {
                XCTAssertEqual(read, 0, "frame \(index): no hand run, no palms")
                continue
            }
            XCTAssertLessThan(tracker.handCropsRead, HandLandmarker.crops.count, "frame \(index)")
            // A run between the turns, on the crops whose look changed on this frame, reads the palms only when those
            // crops name no part, and is no turn of theirs.
            if tracker.handRanOnLook {
                XCTAssertLessThanOrEqual(read, 1, "frame \(index): a run on a look's change")
                if read == 1 { sincePalm = 0 }
                continue
            }
            someRuns += 1
            sincePalm += 1
            let due = sincePalm >= 3 || handHeld
            XCTAssertEqual(read, due ? 1 : 0, "frame \(index): hand run \(someRuns)")
            if due { sincePalm = 0 }
            if let held = tracker.lastPalm {
                // What the face says holds the palms' reading.
                let reading = try XCTUnwrap(face.hand, "frame \(index)")
                XCTAssertTrue(reading.parts.isSuperset(of: held.parts), "frame \(index)")
                XCTAssertGreaterThanOrEqual(reading.face, held.face, "frame \(index)")
            }
            if index < 60 {
                XCTAssertTrue(tracker.lastPalm?.parts.isEmpty ?? true, "frame \(index): a bare face")
            }
        }
        XCTAssertGreaterThanOrEqual(someRuns, 15)
        XCTAssertGreaterThanOrEqual(tracker.palmsRead, 5)
        // The drawn hand held 0.3 face widths off sergey's right cheek: the live palm run found it (0.86; the hand
        // model reads this drawing on the crop out from the cheek, not on the palm's own crop).
        XCTAssertNotNil(tracker.lastPalm, "the palms read on the covered frames")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(palm.lastPalms.first).score, FaceTracker.minPalmScore)
        tracker.reset()
        XCTAssertNil(tracker.lastPalm)
        // With palmEvery 0 only frames that read every crop read palms.
        tracker.palmEvery = 0
        let count = tracker.palmsRead
        for _ in 0..<30 { _ = tracker.process(bare) }
        XCTAssertEqual(tracker.palmsRead, count)
    }

    /// The palms' held reading goes into what each live hand run says (until their next run); a held reading that
    /// names a hand is read again at the very next hand run, so a cover only the palm saw clears as soon as the hand
    /// has gone.
    func testTheHeldPalmReadingIsMergedAndAHandItNamesIsLookedForAgainAtOnce() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand, palm: models.palm)
        let bare = try ImageFile.read(path: fixturePath("sergey.png"))
        func nextHandRun() throws -> HandReading {
            for _ in 0..<40 {
                let face = try XCTUnwrap(tracker.process(bare).first)
                if tracker.handRan { return try XCTUnwrap(face.hand) }
            }
            XCTFail("no hand run in 40 frames")
            return HandReading()
        }
        _ = try nextHandRun()  // the first frame reads every crop and the palms
        // A held reading below the hand flag, with no parts: merged in, not read again before its turn.
        tracker.handRunsSincePalm = 0
        tracker.lastPalm = HandReading(mouth: 0.2)
        var palms = tracker.palmsRead
        let merged = try nextHandRun()
        XCTAssertEqual(tracker.palmsRead, palms, "not the palms' turn")
        XCTAssertGreaterThanOrEqual(merged.mouth, 0.2, "the held palm reading is part of the run's")
        // A held reading that names a hand over the left cheek: the next hand run reads the palms again, finds
        // none on the bare face, and the cheek is no longer said.
        tracker.handRunsSincePalm = 0
        tracker.lastPalm = HandReading(face: 0.9, parts: [.leftCheek])
        palms = tracker.palmsRead
        let after = try nextHandRun()
        XCTAssertEqual(tracker.palmsRead, palms + 1, "read again at once")
        XCTAssertFalse(after.parts.contains(.leftCheek))
        XCTAssertTrue(tracker.lastPalm?.parts.isEmpty ?? true)
    }

    func testWithoutAPalmDetectorNothingIsRead() throws {
        let (tracker, palm) = try tracker()
        tracker.palm = nil
        _ = tracker.process(try ImageFile.read(path: fixturePath("sergey.png")))
        XCTAssertNil(palm.lastSquare)
    }
}
