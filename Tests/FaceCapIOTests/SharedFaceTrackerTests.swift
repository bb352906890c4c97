import FaceCapCore
import XCTest

@testable import FaceCapIO

/// The wizard's one set of face-model interpreters (SPEC §10's memory budget): the built-in validator reads the
/// photo with the live analysis's tracker, judges it as a checker with a tracker of its own does, and leaves
/// neither its settings nor the photo's face behind for the live analysis.
final class SharedFaceTrackerTests: XCTestCase {
    func testTheValidatorOnTheLiveTrackerJudgesAsWithItsOwnAndLeavesNothingBehind() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let shared = try SharedFaceTracker(detector: models.detector, landmarks: models.landmarks, iris: models.iris,
                                           hand: models.hand)
        let sharing = BuiltInChecker(sharing: shared)
        let own = try BuiltInChecker(detector: models.detector, landmarks: models.landmarks, iris: models.iris,
                                     hand: models.hand)
        XCTAssertTrue(sharing.tracker === shared, "the checker reads photos with the tracker it was given")
        XCTAssertFalse(own.tracker === shared)

        let sergey = try ImageFile.read(path: fixturePath("sergey.png"))
        // The live analysis tracks the face first, as it does before a photo is taken.
        XCTAssertEqual(shared.live { $0.process(sergey) }?.count, 1)
        XCTAssertEqual(shared.live { $0.detectorRan }, true)
        XCTAssertEqual(shared.live { tracker -> Bool in _ = tracker.process(sergey); return tracker.detectorRan },
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
        XCTAssertEqual(shared.live { tracker -> Bool in _ = tracker.process(sergey); return tracker.detectorRan },
                       true)
    }
}
