import Dispatch
import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// The wizard's one set of face-model interpreters (SPEC §10's memory budget): the built-in validator reads the
/// photo with the live analysis's tracker, judges it as a checker with a tracker of its own does, and leaves
/// neither its settings nor the photo's face behind for the live analysis.
final class SharedFaceTrackerTests: XCTestCase {
    func testTheValidatorOnTheLiveTrackerJudgesAsWithItsOwnAndLeavesNothingBehind() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let shared = try SharedFaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand, palm: models.palm)
        let sharing = BuiltInChecker(sharing: shared)
        let own = try BuiltInChecker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand, palm: models.palm)
        XCTAssertTrue(sharing.tracker === shared, "the checker reads photos with the tracker it was given")
        XCTAssertFalse(own.tracker === shared)

        let sergey = try ImageFile.read(path: fixturePath("sergey.png"))
        // The live analysis tracks the face first, as it does before a photo is taken.
        XCTAssertEqual(shared.live { $0.process(sergey) }?.count, 1)
        XCTAssertEqual(shared.live { $0.detectorRan }, true)
        XCTAssertEqual(
            shared.live { tracker -> Bool in
                _ = tracker.process(sergey); return tracker.detectorRan
            },
            false, "a tracked face: the detector waits for its interval")

        let photo = try CapturedPhoto(frame: sergey, report: try ValidationFixtures.photo().report)
        let request = ValidationRequest(attempt: 1, isFinal: false)
        let verdict = sharing.check(photo, request: request, cancellation: Cancellation()) { _ in }
        XCTAssertEqual(verdict, .verdict(ValidationVerdict(result: .pass)))
        XCTAssertEqual(verdict, own.check(photo, request: request, cancellation: Cancellation()) { _ in })
        XCTAssertEqual(shared.photo(sergey), own.tracker.photo(sergey), "the same faces, eyes and hand flag")

        // The live settings are back, and the photo's face is not tracked: the next live frame starts with the
        // detector, as on a fresh tracker.
        XCTAssertEqual(shared.intervals.detection, 10)
        XCTAssertEqual(shared.intervals.eyes, 3)
        XCTAssertEqual(shared.intervals.hand, 6)
        XCTAssertEqual(
            shared.live { $0.lastPalm == nil && $0.handRunsSincePalm == 0 }, true,
            "the photo's palms are not held for the live frames")
        XCTAssertEqual(
            shared.live { tracker -> Bool in
                _ = tracker.process(sergey); return tracker.detectorRan
            },
            true)
    }

    /// A check cancelled while it waited for the tracker does not take it: no photo is read, the live analysis keeps
    /// its track and its settings.
    func testACheckCancelledBeforeItHasTheTrackerLeavesItToTheLiveAnalysis() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let shared = try SharedFaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand)
        let sergey = try ImageFile.read(path: fixturePath("sergey.png"))
        XCTAssertEqual(shared.live { $0.process(sergey) }?.count, 1)
        let cancelled = Cancellation()
        cancelled.cancel()
        XCTAssertNil(shared.photo(sergey, cancellation: cancelled))
        let photo = try CapturedPhoto(frame: sergey, report: try ValidationFixtures.photo().report)
        let outcome = BuiltInChecker(sharing: shared).check(
            photo, request: ValidationRequest(attempt: 1, isFinal: false),
            cancellation: cancelled
        ) { _ in }
        XCTAssertEqual(outcome, .unreachable(reason: .cancelled, retryAfter: nil))
        XCTAssertEqual(
            shared.live { tracker -> Bool in
                _ = tracker.process(sergey); return tracker.detectorRan
            },
            false, "the live track was not reset by a photo never read")
    }

    /// While the validator reads a photo on another thread, the live pipeline goes on reading frames: shown, not
    /// analysed, and with no analysis of an earlier frame left to pair with them for a manual photo; once the photo
    /// is read, frames are analysed again with the live settings. The other thread reads a photo, then keeps the
    /// tracker (as a longer read would) until the live side has met it: decided by the hand-over, not by how fast
    /// either thread runs. (Under TSan in CI: the two threads meet here.)
    func testFramesAreShownUnanalysedWhileTheValidatorReadsAPhotoThenAnalysedAgain() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let shared = try SharedFaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand)
        let sergey = try ImageFile.read(path: fixturePath("sergey.png"))
        let pipeline = FramePipeline(tracker: shared, thresholds: AnalyzerThresholds())
        let source = EveryCallSource(still: sergey)
        guard case .analysed = try pipeline.next(from: source) else { return XCTFail("a free tracker analyses") }
        XCTAssertNotNil(pipeline.photoFrame(for: .manual))

        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        // A failed assertion below still lets the other thread go (and the tracker with it).
        defer { release.signal() }
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            XCTAssertEqual(shared.photo(sergey)?.count, 1)
            shared.holding {
                held.signal()
                release.wait()
            }
        }
        // The time-outs only bound a hang.
        XCTAssertEqual(held.wait(timeout: .now() + 300), .success, "the validator's side never took the tracker")
        // The next frame the cadence admits (it skips the one right after an analysed frame) meets a busy tracker.
        var read = try pipeline.next(from: source)
        for _ in 0..<4 {
            guard case .skipped = read else { break }
            read = try pipeline.next(from: source)
        }
        guard case .shownOnly = read else { return XCTFail("a frame due while the validator has the tracker: \(read)") }
        XCTAssertNil(pipeline.photoFrame(for: .manual), "these pixels with another frame's faces")
        XCTAssertNotNil(pipeline.newest, "the frame read is there to be shown")
        release.signal()
        XCTAssertEqual(group.wait(timeout: .now() + 300), .success)
        // The first frame after the validator's read is analysed (the cadence skips none after a frame only shown).
        guard case .analysed = try pipeline.next(from: source) else { return XCTFail("analysed again after the photo") }
        XCTAssertNotNil(pipeline.photoFrame(for: .manual))
        // The live intervals (the cadence's at 15 frames a second analysed), not the validator's 1s.
        let live = AnalysisCadence(frameRate: source.frameRate).intervals
        XCTAssertEqual(shared.intervals.detection, live.detection)
        XCTAssertEqual(shared.intervals.eyes, live.eyes)
        XCTAssertEqual(shared.intervals.hand, live.hand)
    }

    /// The live pipeline sets the hand model's cadence from its last analysis (`HandCadence`): on a face too dark for
    /// any cover to be judged but the hand model's own it reads as while fixing (a hand over the face is said before
    /// the light), no more often than on the well-lit photo.
    func testThePipelineSetsTheHandCadenceFromItsLastAnalysis() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let sergey = try ImageFile.read(path: fixturePath("sergey.png"))
        var dark = sergey
        for i in dark.data.indices { dark.data[i] /= 6 }
        var unlitRuns = 0
        for (still, unlit) in [(dark, true), (sergey, false)] {
            let shared = try SharedFaceTracker(
                detector: models.detector, landmarks: models.landmarks,
                iris: models.iris, hand: models.hand)
            let pipeline = FramePipeline(tracker: shared, thresholds: AnalyzerThresholds())
            let source = EveryCallSource(still: still)
            var runs = 0
            var analysed = 0
            // 20 frames analysed (of 40 read: the cadence analyses every other frame of this 30 fps source).
            while analysed < 20 {
                switch try pipeline.next(from: source) {
                case .analysed:
                    analysed += 1
                    if shared.live({ $0.handRan }) == true { runs += 1 }
                case .skipped:
                    continue
                case .none, .shownOnly:
                    return XCTFail("a free tracker analyses")
                }
            }
            XCTAssertEqual(pipeline.framesRead, 2 * analysed - 1)
            let cadence = try XCTUnwrap(shared.live { $0.handCadence })
            // The eyes' cadence is set beside it (the same but for a face asked only about its eyes).
            let eyeCadence = try XCTUnwrap(shared.live { $0.eyeCadence })
            let lastAnalysis = pipeline.photoFrame(for: .manual)?.analysis
            XCTAssertEqual(eyeCadence, HandCadence(eyesAfter: lastAnalysis))
            if unlit {
                XCTAssertEqual(cadence, .unlit)
                XCTAssertEqual(eyeCadence, .unlit)
                XCTAssertGreaterThanOrEqual(runs, 2, "read while too dark, at the fixing pace")
                let fixing = try XCTUnwrap(shared.live { max($0.handInterval, $0.handFixingInterval) })
                XCTAssertLessThanOrEqual(runs, 1 + (analysed - 1) / fixing, "no faster than the fixing pace")
                unlitRuns = runs
            } else {
                XCTAssertNotEqual(cadence, .unlit)
                XCTAssertGreaterThanOrEqual(runs, max(2, unlitRuns), "\(cadence): hand runs in 20 frames")
            }
        }
    }
}

/// The same still on every call, no pacing: the test's loop sets the pace.
private final class EveryCallSource: FrameSource {
    let still: Frame
    var width: Int { still.width }
    var height: Int { still.height }
    var format: PixelFormat { still.format }
    let frameRate = 30.0
    let label = "still"
    var pollDescriptor: Int32? { nil }
    var secondsUntilNextFrame: Double? { 0 }
    private var delivered = 0

    init(still: Frame) { self.still = still }

    func nextFrame(into frame: inout Frame, timeout: Double) throws(FrameSourceError) -> FrameReadResult {
        frame = still
        frame.timestamp = Double(delivered) / frameRate
        delivered += 1
        return .frame
    }

    func close() {}
}
