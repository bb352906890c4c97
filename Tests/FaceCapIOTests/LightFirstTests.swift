import Foundation
import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// Light first and faces confirmed, through the real face models: real photos darkened the way a webcam
/// darkens a dim room (the shadows crushed to black), and detections the landmark model does not confirm.
final class LightFirstTests: XCTestCase {
    private func tracker() throws -> FaceTracker { try FaceModelsFixture.tracker() }

    /// Every sample through `curve` (RGB photos: each channel, as a camera's tone curve does).
    private func toned(_ name: String, _ curve: (Double) -> Double) throws -> Frame {
        var frame = try ImageFile.read(path: fixturePath(name))
        XCTAssertEqual(frame.format, .rgb24, name)
        let table = (0..<256).map { UInt8(max(0, min(255, curve(Double($0)).rounded()))) }
        frame.data = frame.data.map { table[Int($0)] }
        return frame
    }

    /// Dim (face luma in the 30s–40s) and crushed: everything under 60 black, the rest dimmed.
    private let darkRooms: [(String, (Double) -> Double)] = [
        ("dim ×0.35", { $0 * 0.35 }),
        ("crushed: (v − 60) × 0.5", { max(0, $0 - 60) * 0.5 }),
        ("crushed hard: (v − 90) × 0.6", { max(0, $0 - 90) * 0.6 }),
    ]

    func testADarkOrCrushedUncoveredFaceIsToldTooDarkAndNothingAboutCoverEyesOrGaze() throws {
        let tracker = try tracker()
        tracker.eyeInterval = 1
        var faces = 0
        for name in ["sergey.png", "images/grace_hopper.jpg"] {
            for (label, curve) in darkRooms {
                let still = try toned(name, curve)
                tracker.reset()
                // A still clip through the live analyzer, as the wizard runs it.
                var analyzer = Analyzer()
                var out: AnalyzerOutput?
                var seen: Set<GuidanceCode> = []
                for i in 0..<30 {
                    var frame = still
                    frame.timestamp = Double(i) / 15
                    let output = analyzer.process(frame, faces: tracker.process(frame))
                    seen.formUnion(output.active)
                    seen.formUnion(output.hints)
                    out = output
                }
                let last = try XCTUnwrap(out)
                if last.metrics.face != nil { faces += 1 }
                XCTAssertEqual(last.primary, .tooDark, "\(name), \(label): \(last.active)")
                for code in [GuidanceCode.faceCovered, .eyesClosed, .lookStraight, .blurry] {
                    XCTAssertFalse(seen.contains(code), "\(name), \(label): \(code) in \(seen)")
                }
                // The validator says the same: light first, and only the light.
                tracker.reset()
                let reasons = LocalValidator().assess(still, faces: tracker.process(still)).reasons
                XCTAssertEqual(reasons.first, "tooDark", "\(name), \(label): \(reasons)")
                for code in ["faceCovered", "eyesClosed", "lookStraight", "blurry"] {
                    XCTAssertFalse(reasons.contains(code), "\(name), \(label): \(reasons)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(faces, 4, "the face is still found in most dark rooms, so the rule is exercised")
    }

    func testDetectionsTheLandmarkModelDoesNotConfirmAreRejectedAndNeverMeasured() throws {
        let tracker = try tracker()
        // A detector cut far below MediaPipe's 0.5 floods a photo with spurious detections; every one the
        // landmark model does not confirm must come back rejected, and only confirmed faces count.
        tracker.detector.minScore = 0.02
        let frame = try ImageFile.read(path: fixturePath("sergey.png"))
        let faces = tracker.process(frame)
        XCTAssertGreaterThan(faces.count, 1, "spurious detections at a 0.02 cut")
        let first = try XCTUnwrap(faces.first)
        XCTAssertNotNil(first.landmarks, "the confirmed face leads")
        XCTAssertFalse(first.isRejected)
        for face in faces { XCTAssertEqual(face.landmarks == nil, face.isRejected, "\(face.detection)") }
        XCTAssertTrue(faces.contains { $0.isRejected })
        var low = AnalyzerThresholds()
        low.minFaceScore = 0.02
        let metrics = FaceMeasures.measure(frame: frame, faces: faces, thresholds: low)
        XCTAssertEqual(metrics.faceCount, faces.filter { !$0.isRejected }.count)
        XCTAssertEqual(metrics.face?.index, 0)
    }
    /// A detection the landmark model rejected is remembered for the track: on the next detector frames it is
    /// rejected again without a landmark run (a wide one used to send every detector frame through the
    /// widest-first pass: the widest rejected, the face re-confirmed, its eyes and both hand crops re-read).
    func testARejectedDetectionIsNotRunThroughTheLandmarkModelAgainOnTheSameTrack() throws {
        let tracker = try tracker()
        tracker.detector.minScore = 0.02
        tracker.detectionInterval = 5
        let frame = try ImageFile.read(path: fixturePath("sergey.png"))
        let first = tracker.process(frame)
        let rejected = first.filter(\.isRejected).count
        XCTAssertGreaterThan(rejected, 0, "spurious detections at a 0.02 cut")
        XCTAssertGreaterThan(tracker.landmarkRuns, 1)
        for i in 1...15 {
            let faces = tracker.process(frame)
            XCTAssertEqual(
                tracker.landmarkRuns, 1, "frame \(i): the tracked face only (detector ran: \(tracker.detectorRan))")
            XCTAssertNotNil(faces.first?.landmarks)
            XCTAssertFalse(faces.first?.isRejected ?? true)
            if tracker.detectorRan {
                // Still reported rejected (those overlapping the tracked face are dropped, as before).
                let now = faces.filter(\.isRejected).count
                XCTAssertTrue((1...rejected).contains(now), "frame \(i): \(now) of \(rejected) rejected")
            }
        }
        // A reset forgets them: the next detection runs them through the landmark model again.
        tracker.reset()
        _ = tracker.process(frame)
        XCTAssertGreaterThan(tracker.landmarkRuns, 1)
    }
}
