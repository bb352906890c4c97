import Foundation
import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// The eyes on two threads in the wizard's wiring: a session of a real face tracked with the eyes in parallel gives
/// the faces the sequential tracker gives, bit for bit; the wizard's one tracker (live analysis and built-in
/// validator alike) holds one extra thread, which ends with it.
final class ParallelEyesTrackerTests: XCTestCase {
    /// The bench's session frames (sergey.png moving a pixel or two) through a parallel and a sequential tracker:
    /// every frame's faces equal, eyes included, on the frames the eyes ran on and the others.
    func testATrackedSessionGivesTheSameFacesWithTheEyesInParallel() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let parallel = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            parallelEyes: true)
        let sequential = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            parallelEyes: false)
        XCTAssertEqual(parallel.iris?.isParallel, true)
        XCTAssertEqual(sequential.iris?.isParallel, false)
        // Every left eye on the worker, however loaded the machine: a taken-back eye would be the sequential path.
        parallel.iris?.worker?.takesBack = false
        let frames = SessionFrames.frames(photo: try ImageFile.read(path: fixturePath("sergey.png")))
        var eyeFrames = 0
        for index in 0..<36 {
            let frame = frames[index % frames.count]
            let mine = parallel.process(frame), theirs = sequential.process(frame)
            XCTAssertEqual(mine, theirs, "frame \(index)")
            XCTAssertEqual(parallel.eyesRan, sequential.eyesRan)
            if parallel.eyesRan {
                eyeFrames += 1
                XCTAssertNotNil(mine.first?.eyes, "frame \(index)")
            }
        }
        XCTAssertEqual(eyeFrames, 12)
        XCTAssertEqual(parallel.iris?.workerCounts?.ran, 12, "each eye frame's left eye read by the worker")
        XCTAssertEqual(parallel.iris?.workerCounts?.takenBack, 0)
    }

    /// The wizard builds one `SharedFaceTracker` and hands it to the built-in checker (`BuiltInChecker(sharing:)`):
    /// one eye thread in all, when the eyes run in parallel here, however many photos are checked; none left once
    /// both are gone.
    func testTheWizardsTrackerAndCheckerHoldOneEyeThread() throws {
        let models = try ModelFiles.loadAllFaceModels()
        // The eye worker's own thread state, kept here weakly (not a count of the process's threads: see
        // ParallelEyesTests): the checker uses the wizard's tracker, so it is that one thread, there while either
        // lives and joined once both are gone.
        var shared: SharedFaceTracker? = try SharedFaceTracker(
            detector: models.detector, landmarks: models.landmarks,
            iris: models.iris, hand: models.hand)
        var checker: BuiltInChecker? = BuiltInChecker(sharing: shared!)
        XCTAssertTrue(checker?.tracker === shared, "the checker holds the wizard's tracker, not a second one")
        var state: AnyObject?
        _ = shared?.live { tracker in
            state = tracker.iris?.worker?.threadState
            return 0
        }
        XCTAssertEqual(state != nil, IrisLandmarker.parallelByDefault, "an eye thread when the eyes run in parallel")
        struct Weak { weak var state: AnyObject? }
        let thread = Weak(state: state)
        state = nil
        let sergey = try ImageFile.read(path: fixturePath("sergey.png"))
        for _ in 0..<3 {
            let faces = try XCTUnwrap(checker?.tracker.photo(sergey))
            XCTAssertNotNil(faces.first?.eyes)
            XCTAssertEqual(shared?.live { $0.process(sergey).count }, 1)
        }
        XCTAssertEqual(thread.state != nil, IrisLandmarker.parallelByDefault, "the thread there while both live")
        checker = nil
        XCTAssertEqual(thread.state != nil, IrisLandmarker.parallelByDefault, "still there while the wizard's lives")
        shared = nil
        XCTAssertNil(thread.state, "the eye thread joined once both are gone")
    }
}
