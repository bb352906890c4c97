import XCTest

@testable import FaceCapCore

final class LandmarkTests: XCTestCase {
    func testROIFromTheExpectedDetection() throws {
        let expected = try SergeyExpected.load()
        let roi = FaceROI(detection: expected.detectionInPixels)
        XCTAssertEqual(roi.centre.x, expected.roi.cx * 600, accuracy: 0.01)
        XCTAssertEqual(roi.centre.y, expected.roi.cy * 600, accuracy: 0.01)
        XCTAssertEqual(roi.side, expected.roi.w * 600, accuracy: 0.01)
        XCTAssertEqual(roi.rotation, expected.roi.rotation, accuracy: 1e-5)
    }

    func testRotationIsNormalisedToMinusPiToPi() {
        let box = Rect(x: 0, y: 0, width: 10, height: 20)
        // Eyes right-to-left (upside-down face): angle π must come out as −π.
        let roi = FaceROI(box: box, from: Point2(x: 10, y: 5), to: Point2(x: 0, y: 5))
        XCTAssertEqual(roi.rotation, -Float.pi, accuracy: 1e-6)
        XCTAssertEqual(roi.side, 30)  // 1.5 × the longer side
        XCTAssertEqual(roi.centre, Point2(x: 5, y: 10))
    }

    func testROIFromTooFewKeypointsOrLandmarksIsUprightNotAnOverread() {
        // keypoints[1] / points[263] were once read without a count check: past the array's end.
        let detection = FaceDetection(
            score: 0.9, box: Rect(x: 10, y: 20, width: 40, height: 60),
            keypoints: [Point2(x: 3, y: 4)])
        let roi = FaceROI(detection: detection)
        XCTAssertEqual(roi, FaceROI(centre: Point2(x: 30, y: 50), side: 90, rotation: 0))
        let few = (0..<10).map { SIMD3<Float>(Float($0) * 4, Float($0) * 2 + 7, 0) }
        XCTAssertEqual(FaceROI(landmarks: few), FaceROI(centre: Point2(x: 18, y: 16), side: 54, rotation: 0))
    }

    func testGoldenCropGivesTheExpectedLandmarksInPixels() throws {
        let expected = try SergeyExpected.load()
        let landmarker = try FaceLandmarker(model: try TestData.landmarks)
        _ = landmarker.interpreter.input().update(fromContentsOf: try TestData.golden("mesh_input_1x192x192x3.f32"))
        let roi = FaceROI(
            centre: Point2(x: expected.roi.cx * 600, y: expected.roi.cy * 600),
            side: expected.roi.w * 600,
            rotation: expected.roi.rotation)
        var points = [SIMD3<Float>](repeating: .zero, count: 468)
        let presence = landmarker.landmarksFromInput(roi: roi, into: &points)
        XCTAssertEqual(presence, expected.faceFlag, accuracy: 1e-3)
        var worst: Float = 0
        for (p, e) in zip(points, expected.landmarks) {
            worst = max(worst, abs(p.x - e.x * 600), abs(p.y - e.y * 600), abs(p.z - e.z * 600))
        }
        XCTAssertLessThan(worst, 0.01, "largest landmark difference in pixels")
    }

    func testTrackingROIFromLandmarksUsesEyeCorners() throws {
        let expected = try SergeyExpected.load()
        let pixels = expected.landmarks.map { SIMD3($0.x * 600, $0.y * 600, $0.z * 600) }
        let roi = FaceROI(landmarks: pixels)
        let angle = atan2(Double(pixels[263].y - pixels[33].y), Double(pixels[263].x - pixels[33].x))
        XCTAssertEqual(Double(roi.rotation), angle, accuracy: 1e-5)
        let xs = pixels.map(\.x), ys = pixels.map(\.y)
        XCTAssertEqual(roi.side, 1.5 * max(xs.max()! - xs.min()!, ys.max()! - ys.min()!), accuracy: 1e-3)
    }
}
