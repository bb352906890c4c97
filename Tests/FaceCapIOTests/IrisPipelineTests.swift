import FaceCapCore
import FaceCapIO
import Foundation
import XCTest

/// The eyes end to end on the fixture photos: FaceMesh landmarks → eye ROIs → iris model → frame pixels,
/// against the reference pipeline (tools/iris_ref.py on ref_pipeline.py; Tests/Fixtures/golden/iris_expected.json).
final class IrisPipelineTests: XCTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    func testEyePointsMatchTheReferencePipeline() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("golden/iris_expected.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let models = try ModelFiles.loadAllFaceModels()
        let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks, iris: models.iris)
        for photo in ["sergey", "grace"] {
            let entry = try XCTUnwrap(json[photo] as? [String: Any])
            let frame = try ImageFile.read(
                path: Self.fixtures.appendingPathComponent(try XCTUnwrap(entry["file"] as? String)).path)
            tracker.reset()
            let face = try XCTUnwrap(tracker.process(frame).first)
            let eyes = try XCTUnwrap(face.eyes, "\(photo): the eyes ran on a detected face")
            let expected = try XCTUnwrap(entry["eyes"] as? [String: Any])
            for (tag, eye) in [("r", eyes.right), ("l", eyes.left)] {
                let reference = try XCTUnwrap(expected[tag] as? [String: Any])
                let contour = try XCTUnwrap(reference["contours"] as? [[Double]])
                let iris = try XCTUnwrap(reference["iris"] as? [[Double]])
                var worst: Float = 0
                for (point, want) in zip(eye.contour + eye.iris, contour + iris) {
                    worst = max(worst, hypotf(point.x - Float(want[0]), point.y - Float(want[1])))
                }
                XCTAssertEqual(eye.contour.count, 71)
                XCTAssertEqual(eye.iris.count, 5)
                print("\(photo) eye \(tag): largest distance to the reference \(worst) px")
                XCTAssertLessThanOrEqual(worst, 0.5, "\(photo) eye \(tag)")
            }
        }
    }
}
