import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// Issue 32 item 5, "no covered frame `ready`": a hand that comes between two turns of the hand model is read on the
/// frame it came (`FaceTracker.cropsChangedNow`), so that frame's guidance is not `ready`. The live loop as the wizard
/// runs it at 30 fps (`HandCadence` from the last analysis); frames and model-run counts only, no clock.
final class HandBetweenTurnsTests: XCTestCase {
    private typealias Models = (
        detector: TFLiteModel, landmarks: TFLiteModel, iris: TFLiteModel, hand: TFLiteModel,
        palm: TFLiteModel
    )

    /// What the live loop did on each frame: the analysis's codes, whether the hand model ran and on a look's change,
    /// the crops it read, and the hand-model runs so far (the palms' included).
    private struct Step {
        var active: [GuidanceCode]
        var handRan: Bool
        var onLook: Bool
        var crops: Int
        var runs: Int
    }

    private func live(
        _ models: Models, bare: Frame, covered: Frame, arrival: Int, frames: Int,
        configure: (FaceTracker) -> Void = { _ in }
    ) throws -> [Step] {
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand, palm: models.palm)
        tracker.eyeInterval = 3
        tracker.handInterval = 6
        tracker.handFixingInterval = 12
        tracker.handOnEyeFrames = false
        configure(tracker)
        let hand = try XCTUnwrap(tracker.hand)
        // The fixture is framed close (`maxFaceWidth` 1 keeps it `ready`), and no photo ends the run.
        var thresholds = AnalyzerThresholds()
        thresholds.maxFaceWidth = 1
        thresholds.stabilityWindow = 10
        var analyzer = Analyzer(thresholds: thresholds)
        var last: AnalyzerOutput?
        var steps: [Step] = []
        for index in 0..<frames {
            tracker.handCadence = HandCadence(after: last)
            tracker.eyeCadence = HandCadence(eyesAfter: last)
            var frame = index < arrival ? bare : covered
            frame.timestamp = Double(index) / 30
            let faces = tracker.process(frame)
            let output = analyzer.process(frame, faces: faces)
            steps.append(
                Step(
                    active: output.active, handRan: tracker.handRan, onLook: tracker.handRanOnLook,
                    crops: tracker.handCropsRead, runs: hand.runs))
            last = output
        }
        return steps
    }

    /// A still face, then the same face with a hand (over the mouth, an eye, a cheek) from frame 16: the
    /// turns fall on frames 7, 13 and 19 (0 detects the face; eye frames 0, 3, … are skipped), so 16 lies between
    /// two. On the bare frames no run but the turns' (each of one crop: the looks did not change); on frame 16 a run
    /// on the changed crops (at most `maxLookCrops`), and the frame is not `ready`.
    func testAHandThatComesBetweenTwoTurnsIsReadOnTheFrameItCame() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let bare = try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg"))
        let arrival = 16
        for name in ["sergey_hand_mouth_across", "sergey_hand_eye", "sergey_hand_d_cheek"] {
            let covered = try ImageFile.read(path: fixturePath("eyes/\(name).jpg"))
            let steps = try live(models, bare: bare, covered: covered, arrival: arrival, frames: arrival + 2)
            let label = "\(name): \(steps.enumerated().map { "\($0.offset) \($0.element.active)" })"
            XCTAssertEqual(steps[arrival - 1].active, [.ready], "\(label): the bare face was ready")
            XCTAssertEqual(
                steps.indices.filter { steps[$0].handRan && $0 < arrival }, [0, 7, 13], "\(label): the turns only")
            XCTAssertFalse(steps[..<arrival].contains { $0.onLook }, label)
            XCTAssertEqual(steps[arrival - 1].runs - steps[0].runs, 2, "\(label): one crop a turn")
            let read = steps[arrival]
            XCTAssertTrue(read.handRan && read.onLook, "\(label): the hand read on the frame it came")
            XCTAssertLessThanOrEqual(read.crops, 2, "\(label): at most `maxLookCrops` crops")
            XCTAssertNotEqual(read.active, [.ready], "\(label): the frame the hand came is not ready")
            XCTAssertTrue(read.active.contains(.faceCovered), label)
        }
        // Without the runs between turns (`lookRunsPerTurn` 0: the turns alone, as before) the hand off the cheek,
        // which only the hand model sees (the analyzer's own cover measures name the other two), read `ready` there.
        let covered = try ImageFile.read(path: fixturePath("eyes/sergey_hand_d_cheek.jpg"))
        let before = try live(models, bare: bare, covered: covered, arrival: arrival, frames: arrival + 1) {
            $0.lookRunsPerTurn = 0
        }
        XCTAssertEqual(before[arrival].active, [.ready], "without the runs between turns")
        XCTAssertFalse(before[arrival].handRan)
    }

    /// The cost's bound where looks keep changing (a person talking): a patch over the lips whose halves change
    /// every frame changes the mouth crops' looks on every frame, yet between two turns at most `lookRunsPerTurn`
    /// runs of at most `maxLookCrops` crops are made: over 240 frames at the ready cadence, one such run between most
    /// two turns, never more, and the hand model's runs on them at most twice the turns'.
    func testAMouthThatKeepsChangingCostsAtMostOneRunBetweenTwoTurns() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let bare = try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg"))
        XCTAssertEqual(bare.format, .rgb24)
        let mouth = try XCTUnwrap(
            FaceTracker(detector: models.detector, landmarks: models.landmarks).process(bare)
                .first?.landmarks?.points[13])
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand)
        let hand = try XCTUnwrap(tracker.hand)
        var turns = 0, turnRuns = 0, lookRuns = 0, lookCrops = 0, betweenTurns = 0
        for index in 0..<240 {
            var frame = bare
            let shade = 40 + (index * 37) % 160
            for y in (Int(mouth.y) - 12)..<(Int(mouth.y) + 12) {
                for x in (Int(mouth.x) - 32)..<(Int(mouth.x) + 32) {
                    let value = UInt8(x < Int(mouth.x) ? shade : 240 - shade)
                    for c in 0..<3 { frame.data[(y * frame.width + x) * 3 + c] = value }
                }
            }
            frame.timestamp = Double(index) / 30
            let before = hand.runs
            _ = try XCTUnwrap(tracker.process(frame).first, "frame \(index)")
            guard index > 0, tracker.handRan else { continue }
            if tracker.handRanOnLook {
                lookRuns += 1
                lookCrops += hand.runs - before
                betweenTurns += 1
                XCTAssertLessThanOrEqual(betweenTurns, tracker.lookRunsPerTurn, "frame \(index)")
                XCTAssertLessThanOrEqual(tracker.handCropsRead, tracker.maxLookCrops, "frame \(index)")
            } else {
                turns += 1
                turnRuns += hand.runs - before
                betweenTurns = 0
            }
        }
        XCTAssertEqual(turns, 39, "a turn every sixth frame from 7")
        XCTAssertGreaterThanOrEqual(lookRuns, turns / 2, "the mouth's looks changed between most two turns")
        XCTAssertLessThanOrEqual(lookRuns, turns)
        XCTAssertLessThanOrEqual(lookCrops, 2 * lookRuns)
        XCTAssertLessThanOrEqual(lookCrops, 2 * turnRuns, "at most twice the turns' runs")
    }
}
