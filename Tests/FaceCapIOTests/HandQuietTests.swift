import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// Issue 18's CPU budget with issue 32's hands: while no hand is about, a run of the hand model reads one crop, or
/// the crops whose look changed (`CropLook`); a hand coming over the mouth changes the mouth crop's look and is
/// read at the next run. Counts and frame timestamps only.
final class HandQuietTests: XCTestCase {
    /// `frame` (RGB) moved `dx` pixels to the right, the left edge repeated.
    private func shifted(_ frame: Frame, by dx: Int) throws -> Frame {
        XCTAssertEqual(frame.format, .rgb24)
        var data = frame.data
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let source = max(0, x - dx)
                for c in 0..<3 { data[(y * frame.width + x) * 3 + c] = frame.data[(y * frame.width + source) * 3 + c] }
            }
        }
        var moved = frame
        moved.data = data
        return moved
    }

    /// One predicate says whether a reading says a hand is about (`HandReading.saysHandAbout`: a flag of
    /// `handAboutFlag`, or a part), and `handAbout` (two crops a run) is it on some crop's last reading, or a crop not
    /// read yet; another whether it names a cover (`namesCover`: a part), which a flag alone, however high, does not.
    func testAReadingSaysAHandIsAboutByItsFlagOrAPartAndNamesACoverByAPart() throws {
        let limit = FaceTracker.handAboutFlag
        XCTAssertFalse(HandReading().saysHandAbout)
        XCTAssertFalse(HandReading(mouth: limit.nextDown, face: limit.nextDown).saysHandAbout)
        XCTAssertTrue(HandReading(mouth: limit).saysHandAbout)
        XCTAssertTrue(HandReading(face: limit).saysHandAbout)
        XCTAssertTrue(HandReading(parts: [.leftCheek]).saysHandAbout)
        XCTAssertFalse(HandReading().namesCover)
        XCTAssertFalse(HandReading(mouth: limit, face: HandLandmarker.partFlag.nextDown).namesCover)
        XCTAssertFalse(HandReading(mouth: 1, face: 1).namesCover)
        XCTAssertTrue(HandReading(parts: [.leftCheek]).namesCover)
        let models = try ModelFiles.loadAllFaceModels()
        let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks, hand: models.hand)
        XCTAssertTrue(tracker.handAbout, "no crop read yet")
        for crop in tracker.lastHand.indices { tracker.lastHand[crop] = HandReading(mouth: limit.nextDown) }
        XCTAssertFalse(tracker.handAbout)
        tracker.lastHand[4] = HandReading(parts: [.nose])
        XCTAssertTrue(tracker.handAbout)
    }

    /// The look of a crop follows the face: the same face moved 6 pixels (its landmarks tracked there) changes each
    /// crop's look by far less than `lookChange`; a hand across the mouth changes the mouth crop's by more.
    func testACropsLookChangesWithAHandNotWithTheFaceMoving() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let bare = try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg"))
        let hand = try ImageFile.read(path: fixturePath("eyes/sergey_hand_mouth_across.jpg"))
        let moved = try shifted(bare, by: 6)
        let threshold = try FaceTracker(detector: models.detector, landmarks: models.landmarks).lookChange
        func looks(_ frame: Frame) throws -> [CropLook] {
            let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks)
            let points = try XCTUnwrap(tracker.process(frame).first?.landmarks?.points)
            var scratch: [Float] = []
            return try HandLandmarker.crops.indices.map { crop in
                try XCTUnwrap(
                    CropLook(
                        frame: frame, roi: HandLandmarker.roi(landmarks: points, crop: crop),
                        scratch: &scratch))
            }
        }
        let still = try looks(bare), away = try looks(moved), covered = try looks(hand)
        let points = try XCTUnwrap(
            FaceTracker(detector: models.detector, landmarks: models.landmarks).process(bare)
                .first?.landmarks?.points)
        for crop in HandLandmarker.crops.indices {
            XCTAssertEqual(still[crop].change(from: still[crop]), 0, "crop \(crop)")
            // The fixture is framed close: a crop whose looked-at square leaves the frame sees the frame's edge move
            // (crop 6, out from the left cheek; the frame's edge is no face: read, on the safe side).
            let roi = HandLandmarker.roi(landmarks: points, crop: crop)
            let reach = roi.side * CropLook.inner * 0.71
            guard roi.centre.x - reach >= 6, roi.centre.x + reach <= Float(bare.width) else { continue }
            XCTAssertLessThan(away[crop].change(from: still[crop]), threshold / 2, "crop \(crop): moved 6 px")
        }
        XCTAssertGreaterThan(covered[0].change(from: still[0]), 2 * threshold, "the upright mouth crop")
    }

    /// A still bare face at the ready cadence: after the detection frame (every crop), each run reads one crop, the
    /// upright mouth crop every other run; with `quietHands` off, two. The hand comes over the mouth: the very next
    /// run reads the mouth crop (its look changed) and says the hand, also where the turn would have read another
    /// crop (arrival at frame 46: the run at 49 is the turn of crop 4), and with a hand about runs read two crops.
    func testAQuietFaceReadsOneCropARunAndAHandComingInIsReadAtTheNextRun() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let bare = try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg"))
        let hand = try ImageFile.read(path: fixturePath("eyes/sergey_hand_mouth_across.jpg"))
        for quiet in [true, false] {
            for arrival in [40, 46] {
                let tracker = try FaceTracker(
                    detector: models.detector, landmarks: models.landmarks,
                    iris: models.iris, hand: models.hand)
                tracker.quietHands = quiet
                // The turns alone: the runs between them on a look's change are HandBetweenTurnsTests'.
                tracker.lookRunsPerTurn = 0
                var reads: [Int] = []
                var arrivalRead: (crops: Int, mouth: Float)?
                for index in 0..<(arrival + 20) {
                    var frame = index < arrival ? bare : hand
                    frame.timestamp = Double(index) / 30
                    let face = try XCTUnwrap(tracker.process(frame).first, "frame \(index)")
                    guard tracker.handRan else { continue }
                    if index >= arrival, arrivalRead == nil {
                        arrivalRead = (tracker.handCropsRead, try XCTUnwrap(face.hand).mouth)
                    } else {
                        reads.append(tracker.handCropsRead)
                    }
                }
                // Runs at 0 (detection: all seven crops), then every sixth frame from 7, the eye frames skipped.
                let bareRuns = arrival == 40 ? 7 : 8
                let label = "quiet \(quiet), arrival \(arrival): \(reads)"
                XCTAssertEqual(reads.count, bareRuns + 2, label)
                XCTAssertEqual(reads.first, HandLandmarker.crops.count, label)
                XCTAssertEqual(Array(reads[1..<bareRuns]), Array(repeating: quiet ? 1 : 2, count: bareRuns - 1), label)
                let first = try XCTUnwrap(arrivalRead, "\(label): no run with the hand")
                XCTAssertGreaterThanOrEqual(
                    Double(first.mouth), AnalyzerThresholds().minHandOverMouth,
                    "\(label): the first run after the hand came reads it")
                XCTAssertEqual(Array(reads[bareRuns...]), [2, 2], "\(label): a hand about, two crops a run")
            }
        }
    }

    /// A mouth that keeps moving (a patch over the lips whose halves change every frame, no hand) changes the mouth
    /// crops' looks at every run: they are read, but no other crop waits much longer than its turn would leave it —
    /// its turn plus the turns of the others that fell due with it.
    func testCropsThatKeepChangingDoNotStarveTheOthers() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let bare = try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg"))
        XCTAssertEqual(bare.format, .rgb24)
        let mouth = try XCTUnwrap(
            FaceTracker(detector: models.detector, landmarks: models.landmarks).process(bare)
                .first?.landmarks?.points[13])
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand)
        // The turns alone (the runs between them: HandBetweenTurnsTests, `testAMouthThatKeepsChanging…`).
        tracker.lookRunsPerTurn = 0
        var unread = [Int](repeating: 0, count: HandLandmarker.crops.count), longest = unread, runs = 0, single = 0
        for index in 0..<240 {
            var frame = bare
            // A patch over the lips, its halves a brightness that changes every frame, the one against the other.
            let shade = 40 + (index * 37) % 160
            for y in (Int(mouth.y) - 12)..<(Int(mouth.y) + 12) {
                for x in (Int(mouth.x) - 32)..<(Int(mouth.x) + 32) {
                    let value = UInt8(x < Int(mouth.x) ? shade : 240 - shade)
                    for c in 0..<3 { frame.data[(y * frame.width + x) * 3 + c] = value }
                }
            }
            frame.timestamp = Double(index) / 30
            let face = try XCTUnwrap(tracker.process(frame).first, "frame \(index)")
            guard tracker.handRan, !tracker.handCropsReadList.isEmpty else { continue }
            XCTAssertLessThan(try XCTUnwrap(face.hand).mouth, 0.25, "frame \(index): no hand about")
            XCTAssertLessThanOrEqual(tracker.handCropsRead, 2)
            runs += 1
            single += tracker.handCropsRead == 1 ? 1 : 0
            for crop in unread.indices {
                unread[crop] = tracker.handCropsReadList.contains(crop) ? 0 : unread[crop] + 1
                longest[crop] = max(longest[crop], unread[crop])
            }
        }
        XCTAssertGreaterThanOrEqual(runs, 30)
        XCTAssertGreaterThan(single, 0, "the quiet path (no hand about) was taken: some runs read one crop")
        for crop in longest.indices {
            // Its turn, and at most the other five crops' turns before it when they fell due together.
            XCTAssertLessThan(
                longest[crop], FaceTracker.quietCrops.count + HandLandmarker.crops.count - 2,
                "crop \(crop): \(longest)")
        }
    }
}
