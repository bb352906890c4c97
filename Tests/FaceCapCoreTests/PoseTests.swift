import XCTest

@testable import FaceCapCore

final class PoseTests: XCTestCase {
    /// 468 landmarks with the canonical vertices posed by R = Rz(roll)·Ry(−yaw)·Rx(−pitch), scaled and
    /// moved into a 640×480 frame (the other points are irrelevant to the fit and stay at the centre).
    private func posed(yaw: Double, pitch: Double, roll: Double, scale: Double = 12) -> [SIMD3<Float>] {
        let (a, b, c) = (-pitch * .pi / 180, -yaw * .pi / 180, roll * .pi / 180)
        func rotate(_ v: SIMD3<Double>) -> SIMD3<Double> {
            let x1 = SIMD3(v.x, cos(a) * v.y - sin(a) * v.z, sin(a) * v.y + cos(a) * v.z)
            let x2 = SIMD3(cos(b) * x1.x + sin(b) * x1.z, x1.y, -sin(b) * x1.x + cos(b) * x1.z)
            return SIMD3(cos(c) * x2.x - sin(c) * x2.y, sin(c) * x2.x + cos(c) * x2.y, x2.z)
        }
        var points = [SIMD3<Float>](repeating: SIMD3(320, 240, 0), count: 468)
        for (index, p, _) in LandmarkGeometry.canonical {
            let q = rotate(SIMD3(p.x, -p.y, -p.z)) * scale + SIMD3(320, 240, 0)
            points[index] = SIMD3(Float(q.x), Float(q.y), Float(q.z))
        }
        return points
    }

    func testRecoversKnownRotations() throws {
        let cases = [(0.0, 0.0, 0.0), (20, 0, 0), (-25, 10, 0), (0, -18, 7), (12, 14, -30), (-40, -5, 15)]
        for (yaw, pitch, roll) in cases {
            let pose = try XCTUnwrap(LandmarkGeometry.headPose(posed(yaw: yaw, pitch: pitch, roll: roll)))
            XCTAssertEqual(pose.yaw, yaw, accuracy: 0.05, "yaw of \((yaw, pitch, roll))")
            XCTAssertEqual(pose.pitch, pitch, accuracy: 0.05, "pitch of \((yaw, pitch, roll))")
            XCTAssertEqual(pose.roll, roll, accuracy: 0.05, "roll of \((yaw, pitch, roll))")
        }
    }

    func testSignsMeanWhatTheDocumentationSays() throws {
        // Turning toward the person's own left moves the nose tip to the image's right.
        let turned = posed(yaw: 20, pitch: 0, roll: 0)
        XCTAssertGreaterThan(turned[1].x, (turned[33].x + turned[263].x) / 2)
        // Looking up moves the nose tip up toward the eyes in the image.
        let level = posed(yaw: 0, pitch: 0, roll: 0), up = posed(yaw: 0, pitch: 20, roll: 0)
        XCTAssertLessThan(up[1].y - up[33].y, level[1].y - level[33].y)
        // A clockwise tilt in the image drops the eye on the image's right.
        let tilted = posed(yaw: 0, pitch: 0, roll: 15)
        XCTAssertGreaterThan(tilted[263].y, tilted[33].y)
        XCTAssertGreaterThan(try XCTUnwrap(LandmarkGeometry.headPose(tilted)).roll, 0)
    }

    func testSergeyIsFrontalAndInPlaneRotationIsRoll() throws {
        let face = AnalysisFixtures.sergey.face
        let points = try XCTUnwrap(face.landmarks?.points)
        let pose = try XCTUnwrap(LandmarkGeometry.headPose(points))
        // tools/calibrate.py on the same landmarks: yaw −0.6°, pitch −2.3°, roll −0.2°.
        XCTAssertEqual(pose.yaw, -0.6, accuracy: 0.3)
        XCTAssertEqual(pose.pitch, -2.3, accuracy: 0.3)
        XCTAssertEqual(pose.roll, -0.2, accuracy: 0.3)
        // Rotating the landmarks in the image plane changes roll by the same angle and nothing else.
        for degrees in [-20.0, 10, 25] {
            let angle = Float(degrees * .pi / 180)
            let rotated = points.map { p -> SIMD3<Float> in
                let dx = p.x - 300, dy = p.y - 300
                return SIMD3(300 + cos(angle) * dx - sin(angle) * dy, 300 + sin(angle) * dx + cos(angle) * dy, p.z)
            }
            let turned = try XCTUnwrap(LandmarkGeometry.headPose(rotated))
            XCTAssertEqual(turned.roll - pose.roll, degrees, accuracy: 0.5)
            XCTAssertEqual(turned.yaw, pose.yaw, accuracy: 0.5)
            XCTAssertEqual(turned.pitch, pose.pitch, accuracy: 0.5)
        }
    }

    func testPitchOffsetIsAdded() throws {
        let points = posed(yaw: 0, pitch: -5, roll: 0)
        XCTAssertEqual(try XCTUnwrap(LandmarkGeometry.headPose(points, pitchOffset: 5)).pitch, 0, accuracy: 0.05)
    }

    func testEyeAndMouthMeasuresOnSergey() throws {
        let points = try XCTUnwrap(AnalysisFixtures.sergey.face.landmarks?.points)
        let features = try XCTUnwrap(LandmarkGeometry.features(points))
        // reference/mediapipe-models.md §1.12: EAR 0.249 / 0.245, MAR (inner) 0.246, eyes open, smiling.
        XCTAssertEqual(features.rightEyeAspectRatio, 0.249, accuracy: 0.002)
        XCTAssertEqual(features.leftEyeAspectRatio, 0.245, accuracy: 0.002)
        XCTAssertEqual(features.mouthOpening, 0.246, accuracy: 0.002)
        XCTAssertTrue(GuidanceRules.eyesOpen(features, thresholds: AnalyzerThresholds()))
    }

    func testClosingTheLidsLowersTheEyeAspectRatio() throws {
        var points = try XCTUnwrap(AnalysisFixtures.sergey.face.landmarks?.points)
        // Move every upper-lid point onto the lower lid below it: a closed eye.
        for (upper, lower) in [(160, 144), (158, 153), (385, 380), (387, 373)] {
            points[upper].y = points[lower].y - 0.5
        }
        let features = try XCTUnwrap(LandmarkGeometry.features(points))
        XCTAssertLessThan(max(features.leftEyeAspectRatio, features.rightEyeAspectRatio), 0.05)
        XCTAssertFalse(GuidanceRules.eyesOpen(features, thresholds: AnalyzerThresholds()))
    }

    func testTooFewLandmarksGiveNoPose() {
        XCTAssertNil(LandmarkGeometry.headPose([SIMD3<Float>](repeating: .zero, count: 10)))
        XCTAssertNil(LandmarkGeometry.features([]))
    }
}
