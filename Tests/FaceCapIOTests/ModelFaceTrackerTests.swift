import FaceCapCore
import FaceCapIO
import Foundation
import XCTest

/// The whole pipeline on real photos: sergey.png against the reference results, dino.jpg without a face.
final class ModelFaceTrackerTests: XCTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    private struct Expected {
        var box: Rect
        var keypoints: [Point2]
        var landmarks: [SIMD2<Float>]
    }

    private func expected() throws -> Expected {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("golden/sergey_expected.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let detection = try XCTUnwrap((json["detections"] as? [[String: Any]])?.first)
        let b = try XCTUnwrap(detection["box_xyxy"] as? [Double]).map { Float($0) * 600 }
        let keypoints = try XCTUnwrap(detection["keypoints"] as? [[Double]])
        let landmarks = try XCTUnwrap(json["landmarks_normalized"] as? [[Double]])
        return Expected(
            box: Rect(x: b[0], y: b[1], width: b[2] - b[0], height: b[3] - b[1]),
            keypoints: keypoints.map { Point2(x: Float($0[0]) * 600, y: Float($0[1]) * 600) },
            landmarks: landmarks.map { SIMD2(Float($0[0]) * 600, Float($0[1]) * 600) })
    }

    private func tracker() throws -> FaceTracker {
        let models = try ModelFiles.loadFaceModels()
        return try FaceTracker(detector: models.detector, landmarks: models.landmarks)
    }

    private func sergey() throws -> Frame {
        try ImageFile.read(path: Self.fixtures.appendingPathComponent("sergey.png").path)
    }

    private func checkSergey(
        _ faces: [Face], _ reference: Expected, landmarkTolerance: Float,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(faces.count, 1, file: file, line: line)
        let face = try XCTUnwrap(faces.first)
        XCTAssertGreaterThanOrEqual(iou(face.detection.box, reference.box), 0.95, file: file, line: line)
        for (a, b) in zip(face.detection.keypoints, reference.keypoints) {
            XCTAssertLessThan(hypot(a.x - b.x, a.y - b.y), 3, "keypoint", file: file, line: line)
        }
        let landmarks = try XCTUnwrap(face.landmarks, file: file, line: line)
        XCTAssertGreaterThan(landmarks.presence, 0, file: file, line: line)
        let errors = zip(landmarks.points, reference.landmarks).map { hypot($0.x - $1.x, $0.y - $1.y) }
        let mean = errors.reduce(0, +) / Float(errors.count)
        print("sergey: box IoU \(iou(face.detection.box, reference.box)), mean landmark error \(mean) px")
        XCTAssertLessThan(mean, landmarkTolerance, "mean landmark error in pixels", file: file, line: line)
    }

    func testSergeyMatchesTheReferencePipeline() throws {
        let tracker = try tracker()
        let faces = tracker.process(try sergey())
        XCTAssertTrue(tracker.detectorRan)
        try checkSergey(faces, try expected(), landmarkTolerance: 0.05)
    }

    func testSecondFrameIsTrackedWithoutTheDetector() throws {
        let tracker = try tracker()
        let frame = try sergey()
        _ = tracker.process(frame)
        let faces = tracker.process(frame)
        XCTAssertFalse(tracker.detectorRan)
        XCTAssertTrue(faces.first?.isTracked ?? false)
        let reference = try expected()
        let landmarks = try XCTUnwrap(faces.first?.landmarks)
        let errors = zip(landmarks.points, reference.landmarks).map { hypot($0.x - $1.x, $0.y - $1.y) }
        XCTAssertLessThan(errors.reduce(0, +) / Float(errors.count), 3)
        // A frame without the face loses the track and runs the detector again.
        let blank = Frame(format: .gray, width: 600, height: 600, data: [UInt8](repeating: 128, count: 360_000))
        XCTAssertEqual(tracker.process(blank), [])
        XCTAssertEqual(tracker.process(blank), [])
        XCTAssertTrue(tracker.detectorRan)
    }

    func testTrackingFollowsAMovingFace() throws {
        let tracker = try tracker()
        let frame = try sergey()
        let first = try XCTUnwrap(tracker.process(frame).first?.landmarks)
        // The same picture moved 15 px right and 9 px down (grey fills the uncovered edge).
        var moved = frame
        moved.data = [UInt8](repeating: 128, count: frame.data.count)
        for y in 9..<600 {
            for x in 15..<600 {
                for ch in 0..<3 { moved.data[(y * 600 + x) * 3 + ch] = frame.data[((y - 9) * 600 + x - 15) * 3 + ch] }
            }
        }
        let second = try XCTUnwrap(tracker.process(moved).first)
        XCTAssertFalse(tracker.detectorRan)
        XCTAssertTrue(second.isTracked)
        let tracked = try XCTUnwrap(second.landmarks).points
        // Against the detector-seeded result on the moved picture, and the first result moved by (15, 9).
        let detected = try XCTUnwrap(try self.tracker().process(moved).first?.landmarks).points
        func meanDistance(_ a: [SIMD3<Float>], _ b: [SIMD3<Float>], shift: SIMD2<Float> = .zero) -> Float {
            zip(a, b).map { hypot($0.x - $1.x - shift.x, $0.y - $1.y - shift.y) }.reduce(0, +) / Float(a.count)
        }
        print(
            "moved face: tracked vs detected \(meanDistance(tracked, detected)) px, "
                + "tracked vs first + shift \(meanDistance(tracked, first.points, shift: SIMD2(15, 9))) px, "
                + "detected vs first + shift \(meanDistance(detected, first.points, shift: SIMD2(15, 9))) px")
        XCTAssertLessThan(meanDistance(tracked, detected), 3)
        XCTAssertLessThan(meanDistance(tracked, first.points, shift: SIMD2(15, 9)), 4)
        // The detection rebuilt from landmarks keeps the detector's keypoint order (right eye image-left).
        XCTAssertLessThan(second.detection.keypoints[0].x, second.detection.keypoints[1].x)
        XCTAssertGreaterThan(second.detection.score, 0.5)
    }

    func testSergeyAsACameraYUYVFrame() throws {
        // The same picture as a limited-range YUYV frame (BT.601), as a webcam would deliver it.
        let rgb = try sergey()
        var yuyv = [UInt8](repeating: 0, count: 600 * 600 * 2)
        for y in 0..<600 {
            for x in stride(from: 0, to: 600, by: 2) {
                func yuv(_ i: Int) -> (Float, Float, Float) {
                    let r = Float(rgb.data[i * 3]), g = Float(rgb.data[i * 3 + 1]), b = Float(rgb.data[i * 3 + 2])
                    return (
                        16 + 0.257 * r + 0.504 * g + 0.098 * b, 128 - 0.148 * r - 0.291 * g + 0.439 * b,
                        128 + 0.439 * r - 0.368 * g - 0.071 * b
                    )
                }
                let a = yuv(y * 600 + x), b = yuv(y * 600 + x + 1)
                let o = (y * 600 + x) * 2
                yuyv[o] = UInt8(a.0.rounded()); yuyv[o + 2] = UInt8(b.0.rounded())
                yuyv[o + 1] = UInt8(((a.1 + b.1) / 2).rounded()); yuyv[o + 3] = UInt8(((a.2 + b.2) / 2).rounded())
            }
        }
        let frame = Frame(format: .yuyv, width: 600, height: 600, colorRange: .limited, data: yuyv)
        try checkSergey(try tracker().process(frame), try expected(), landmarkTolerance: 1)
    }

    /// The bench's session frames (`SessionFrames`: the photo in a 640×480 YUYV frame, moved a pixel or two per
    /// frame) through `FaceTracker.process`: a tracked face on every frame, the detector only on the first and then
    /// every `detectionInterval` frames, the eyes every `eyeInterval` frames, never a frozen frame.
    func testSessionFramesAreTrackedAndSkipTheDetector() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks, iris: models.iris)
        let frames = SessionFrames.frames(photo: try sergey())
        XCTAssertEqual(frames.count, SessionFrames.offsets.count)
        XCTAssertTrue(frames.allSatisfy { $0.format == .yuyv && $0.width == 640 && $0.height == 480 })
        XCTAssertNotEqual(frames[0].data, frames[1].data)
        var detectorFrames: [Int] = [], eyeFrames: [Int] = [], centres: [Float] = []
        for index in 0..<30 {
            let faces = tracker.process(frames[index % frames.count])
            let face = try XCTUnwrap(faces.first, "frame \(index)")
            XCTAssertEqual(faces.count, 1)
            XCTAssertNotNil(face.landmarks)
            XCTAssertEqual(face.isTracked, index > 0, "frame \(index)")
            if tracker.detectorRan { detectorFrames.append(index) }
            if tracker.eyesRan { eyeFrames.append(index); XCTAssertNotNil(face.eyes) }
            centres.append(face.detection.box.centre.x)
        }
        XCTAssertEqual(detectorFrames, [0, 10, 20])
        XCTAssertEqual(eyeFrames, [0, 3, 6, 9, 12, 15, 18, 21, 24, 27])
        // The face follows the frames' offsets (±2 px): it moves, a little.
        let spread = centres.max()! - centres.min()!
        XCTAssertGreaterThan(spread, 1)
        XCTAssertLessThan(spread, 8)
    }

    /// `FrameProfile` times every part of a tracked frame with eyes, and leaves the tracker as it was.
    func testFrameProfileHasEveryPartAndKeepsTheTrackersIntervals() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks, iris: models.iris)
        let frames = SessionFrames.frames(photo: try sergey())
        _ = tracker.process(frames[0])
        var tick = 0.0
        let parts = FrameProfile.parts(
            tracker: tracker, analyzer: Analyzer(), frame: frames[1], runs: 3,
            clock: {
                tick += 1; return tick
            }, cpuClock: { tick })
        let labels = parts.map(\.label)
        for prefix in [
            "detector: model", "landmarks: frame -> 192x192", "eyes: iris model",
            "eyes: both eyes as a frame reads them", "analyzer: cover",
            "analyzer: sharpness", "analyzer: light", "whole tracked frame",
        ] {
            XCTAssertTrue(labels.contains { $0.hasPrefix(prefix) }, prefix)
        }
        XCTAssertTrue(parts.allSatisfy { $0.milliseconds == 1 })  // each run between two ticks of the clock
        XCTAssertEqual(tracker.eyeInterval, 3)
        XCTAssertEqual(tracker.detectionInterval, 10)
    }

    func testDinoHasNoFace() throws {
        let frame = try ImageFile.read(path: Self.fixtures.appendingPathComponent("dino.jpg").path)
        XCTAssertEqual(try tracker().process(frame), [])
    }
}
