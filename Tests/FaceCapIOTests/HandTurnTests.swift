import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// Issue 32 item 5: a hand over the mouth named within 0.2 s. The hand model's turn comes every `handInterval`
/// frames; it used to wait past that for a frame without eyes, or for the slower `.fixing` interval when the hand's
/// arrival moved the landmarks enough to ask `holdStill` for a frame or two (7–8 frames at 30 fps). When the upright
/// mouth crop's look changed since its last reading, the turn waits for neither. Frame counts only, no clock.
final class HandTurnTests: XCTestCase {
    private typealias Models = (
        detector: TFLiteModel, landmarks: TFLiteModel, iris: TFLiteModel, hand: TFLiteModel,
        palm: TFLiteModel
    )

    private func tracker(_ models: Models) throws -> FaceTracker {
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand)
        tracker.eyeInterval = 3
        tracker.handInterval = 6
        tracker.handFixingInterval = 12
        tracker.handOnEyeFrames = false
        // The turns alone: the runs between them on a look's change are HandBetweenTurnsTests'.
        tracker.lookRunsPerTurn = 0
        return tracker
    }

    /// The frames (after the detection frame, 0) the hand model ran on, with whether the eyes ran there too and the
    /// mouth flag read; the hand over the mouth from `arrival` on (never when nil), the cadence `cadence(index)`.
    private func runs(
        _ tracker: FaceTracker, frames: Int, arrival: Int?,
        cadence: (Int) -> HandCadence
    ) throws -> [(index: Int, eyes: Bool, mouth: Float)] {
        let bare = try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg"))
        let hand = try ImageFile.read(path: fixturePath("eyes/sergey_hand_mouth_across.jpg"))
        var out: [(index: Int, eyes: Bool, mouth: Float)] = []
        for index in 0..<frames {
            tracker.handCadence = cadence(index)
            var frame = arrival.map { index >= $0 } == true ? hand : bare
            frame.timestamp = Double(index) / 30
            let face = try XCTUnwrap(tracker.process(frame).first, "frame \(index)")
            if index > 0 { XCTAssertTrue(face.isTracked, "frame \(index): tracked, not detected anew") }
            if index > 0, tracker.handRan { out.append((index, tracker.eyesRan, try XCTUnwrap(face.hand).mouth)) }
        }
        return out
    }

    /// The first turn after the detection frame falls on frame 6, an eye frame (eyes on 0, 3, 6…): a bare face's
    /// run waits for frame 7 (the eye frames keep their cost); a hand that came over the mouth on frames 1–6 is read
    /// on frame 6 itself (arrivals 1 and 6; a hand from frame 4 is read on frame 6 too, but the landmarks tracked over
    /// two frames of it put this fixture's mouth crop where the model reads no hand there). Before this change it was
    /// read on frame 7.
    func testAHandOverTheMouthIsReadOnItsTurnEvenOnAnEyeFrame() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let bare = try runs(try tracker(models), frames: 10, arrival: nil) { _ in .ready }
        XCTAssertEqual(bare.first?.index, 7, "a bare face: the turn waits for a frame without eyes")
        XCTAssertEqual(bare.first?.eyes, false)
        // With `lookChange` infinite (no look counts as changed) the turn waits as before: frame 7.
        let old = try tracker(models)
        old.lookChange = .infinity
        XCTAssertEqual(try runs(old, frames: 10, arrival: 1) { _ in .ready }.first?.index, 7, "without the look")
        for arrival in [1, 6] {
            let covered = try runs(try tracker(models), frames: 10, arrival: arrival) { _ in .ready }
            let first = try XCTUnwrap(covered.first, "arrival \(arrival)")
            XCTAssertEqual(first.index, 6, "arrival \(arrival): read on its turn")
            XCTAssertTrue(first.eyes, "arrival \(arrival): frame 6 is an eye frame")
            XCTAssertGreaterThanOrEqual(
                Double(first.mouth), AnalyzerThresholds().minHandOverMouth, "arrival \(arrival)")
        }
    }

    /// A face asked something else (`.fixing`) reads the hand every `handFixingInterval` (12) frames: a bare face's
    /// turn after the run on frame 7 comes on frame 19. A hand that comes over the mouth right after that run, while
    /// the face is asked to hold still, is read at the ready interval, frame 13, not 19.
    func testAHandOverTheMouthIsReadAtTheReadyIntervalWhileAnotherCodeIsAsked() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let cadence: (Int) -> HandCadence = { $0 <= 7 ? .ready : .fixing }
        let bare = try runs(try tracker(models), frames: 22, arrival: nil, cadence: cadence)
        XCTAssertEqual(bare.map(\.index), [7, 19], "a bare face asked something else: every 12th frame")
        let covered = try runs(try tracker(models), frames: 22, arrival: 8, cadence: cadence)
        XCTAssertEqual(covered.first?.index, 7)
        let read = try XCTUnwrap(covered.dropFirst().first, "the hand never read")
        XCTAssertEqual(read.index, 13, "the hand read at the ready interval after the run on frame 7")
        XCTAssertGreaterThanOrEqual(Double(read.mouth), AnalyzerThresholds().minHandOverMouth)
        let old = try tracker(models)
        old.lookChange = .infinity
        XCTAssertEqual(
            try runs(old, frames: 22, arrival: 8, cadence: cadence).map(\.index), [7, 19], "without the look")
    }
}
