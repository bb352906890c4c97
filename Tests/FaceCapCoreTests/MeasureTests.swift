import XCTest

@testable import FaceCapCore

final class MeasureTests: XCTestCase {
    let thresholds = AnalyzerThresholds()

    func testEveryPixelFormatReadsTheSameLight() throws {
        let placement = AnalysisFixtures.Placement()
        var reference: FrameMetrics?
        for format in [PixelFormat.gray, .yuyv, .rgb24, .yuv420p, .yuv422p, .yuv444p] {
            let (frame, face) = AnalysisFixtures.frame(placement, format: format)
            let metrics = FaceMeasures.measure(frame: frame, faces: [face], thresholds: thresholds)
            let light = try XCTUnwrap(metrics.face?.light, "\(format)")
            let sharpness = try XCTUnwrap(metrics.face?.sharpness, "\(format)")
            if let reference, let expected = reference.face?.light {
                // Limited-range YUV loses a little precision (219 codes for 256 levels).
                XCTAssertEqual(light.meanLuma, expected.meanLuma, accuracy: 1, "\(format)")
                XCTAssertEqual(light.balance, expected.balance, accuracy: 0.02, "\(format)")
                XCTAssertEqual(metrics.frameLuma!, reference.frameLuma!, accuracy: 1, "\(format)")
                let expected = reference.face!.sharpness!
                XCTAssertEqual(sharpness, expected, accuracy: expected * 0.1, "\(format)")
            } else {
                reference = metrics
            }
        }
    }

    func testSergeyWellPlacedMeasuresAsTheCalibrationDid() throws {
        let (frame, face) = AnalysisFixtures.frame(.init())
        let metrics = FaceMeasures.measure(frame: frame, faces: [face], thresholds: thresholds)
        let m = try XCTUnwrap(metrics.face)
        XCTAssertEqual(m.widthRatio, 0.38, accuracy: 0.001)
        XCTAssertEqual(m.offsetX, 0, accuracy: 0.001)
        XCTAssertEqual(m.offsetY, 0, accuracy: 0.001)
        XCTAssertGreaterThan(m.edgeMargin, 0.05)
        // tools/calibrate.py on sergey at 0.38–0.39 of a 640 frame: face luma 111, balance 0.97.
        let light = try XCTUnwrap(m.light)
        XCTAssertEqual(light.meanLuma, 111, accuracy: 4)
        XCTAssertGreaterThan(light.balance, 0.9)
        XCTAssertLessThan(light.darkFraction, 0.02)
        XCTAssertEqual(light.brightFraction, 0)
        XCTAssertGreaterThan(try XCTUnwrap(m.sharpness), thresholds.minSharpness * thresholds.sharpnessHysteresis)
        XCTAssertEqual(metrics.faceCount, 1)
    }

    func testDarkAndBrightPixelFractionsAndBalance() throws {
        // Left half of the face region at luma 10, right half at 252.
        var grey = [UInt8](repeating: 128, count: 640 * 480)
        for y in 0..<480 { for x in 0..<640 { grey[y * 640 + x] = x < 320 ? 10 : 252 } }
        let frame = AnalysisFixtures.encode(grey, width: 640, height: 480, format: .gray)
        let face = Face(
            detection: FaceDetection(
                score: 0.9, box: Rect(x: 200, y: 120, width: 240, height: 240),
                keypoints: []), landmarks: nil)
        let light = try XCTUnwrap(FaceMeasures.measure(frame: frame, faces: [face], thresholds: thresholds).face?.light)
        XCTAssertEqual(light.darkFraction, 0.5, accuracy: 0.02)
        XCTAssertEqual(light.brightFraction, 0.5, accuracy: 0.02)
        XCTAssertEqual(light.leftLuma, 10, accuracy: 0.5)
        XCTAssertEqual(light.rightLuma, 252, accuracy: 0.5)
        XCTAssertLessThan(light.balance, 0.05)
    }

    func testBlurLowersSharpnessAndSizeBarelyChangesIt() throws {
        func sharpness(_ p: AnalysisFixtures.Placement) throws -> Double {
            let (frame, face) = AnalysisFixtures.frame(p)
            let metrics = FaceMeasures.measure(frame: frame, faces: [face], thresholds: thresholds)
            return try XCTUnwrap(metrics.face?.sharpness)
        }
        let sharp = try sharpness(.init())
        let blurred = try sharpness(.init(blurRadius: 3))
        XCTAssertLessThan(blurred, thresholds.minSharpness)
        XCTAssertLessThan(blurred * 4, sharp)
        // The crop is resampled to one size, so a smaller or larger face stays the same order.
        let far = try sharpness(.init(faceWidth: 0.3)), near = try sharpness(.init(faceWidth: 0.48))
        XCTAssertLessThan(max(far, near, sharp) / min(far, near, sharp), 3)
        // Exposure-normalised: half the light is not half the sharpness squared.
        let dim = try sharpness(.init(gain: 0.55))
        XCTAssertEqual(dim / sharp, 1, accuracy: 0.25)
    }

    func testEdgeMarginGoesNegativeWhenTheFaceLeavesTheFrame() throws {
        let (frame, face) = AnalysisFixtures.frame(.init(centreX: 0.92))
        let m = try XCTUnwrap(FaceMeasures.measure(frame: frame, faces: [face], thresholds: thresholds).face)
        XCTAssertLessThan(m.edgeMargin, 0)
        let (inside, insideFace) = AnalysisFixtures.frame(.init(centreX: 0.6))
        XCTAssertGreaterThan(
            try XCTUnwrap(
                FaceMeasures.measure(
                    frame: inside, faces: [insideFace],
                    thresholds: thresholds
                ).face
            ).edgeMargin, 0)
    }

    func testLargestConfidentFaceLeadsAndWeakFacesDoNotCount() throws {
        let (frame, face) = AnalysisFixtures.frame(.init())
        var small = face
        small.detection.box = Rect(x: 10, y: 10, width: 120, height: 120)
        small.landmarks = nil
        small.detection.score = 0.7
        var weak = face
        weak.detection.score = 0.3
        let metrics = FaceMeasures.measure(frame: frame, faces: [small, weak, face], thresholds: thresholds)
        XCTAssertEqual(metrics.faceCount, 2)
        XCTAssertEqual(metrics.face?.index, 2)
        XCTAssertEqual(metrics.secondFaceScore!, 0.7, accuracy: 1e-6)
        // The largest face is measured by its landmark bounds, 0.38 of the width.
        XCTAssertEqual(metrics.secondFaceRelativeWidth!, 120 / 243.2, accuracy: 1e-3)
        XCTAssertEqual(metrics.faceWidths.count, 2)
    }

    func testTruncatedAndTinyFramesAreMeasuredWithoutCrashing() {
        let (frame, face) = AnalysisFixtures.frame(.init(), format: .yuyv)
        var short = frame
        short.data.removeLast(1000)
        let metrics = FaceMeasures.measure(frame: short, faces: [face], thresholds: thresholds)
        XCTAssertNil(metrics.frameLuma)
        XCTAssertNil(metrics.face?.light)
        XCTAssertNotNil(metrics.face, "geometry still comes from the face models")
        let tiny = Frame(format: .gray, width: 1, height: 1, colorRange: .full, data: [7])
        let far = Face(
            detection: FaceDetection(
                score: 0.9, box: Rect(x: -50, y: 1e6, width: 3, height: 3),
                keypoints: []), landmarks: nil)
        let tinyMetrics = FaceMeasures.measure(frame: tiny, faces: [far], thresholds: thresholds)
        XCTAssertEqual(tinyMetrics.frameLuma, 7)
        XCTAssertNil(tinyMetrics.face?.light)
        XCTAssertLessThan(tinyMetrics.face!.edgeMargin, 0)
    }

    func testNonFiniteAndHugeFaceBoxesAreMeasuredWithoutTrapping() {
        // A model's garbage output: NaN, infinities and numbers far past Int's range reached `Int(_:)` in the
        // light and sharpness measures and trapped.
        let frame = Frame(
            format: .gray, width: 64, height: 48, colorRange: .full,
            data: [UInt8](repeating: 90, count: 64 * 48))
        let boxes = [
            Rect(x: .nan, y: 10, width: 20, height: 20), Rect(x: 10, y: 10, width: .infinity, height: 20),
            Rect(x: -.infinity, y: 0, width: .infinity, height: 30),
            Rect(x: 1e30, y: 1e30, width: 9, height: 9), Rect(x: -1e30, y: -1e30, width: 2e30, height: 2e30),
            Rect(x: 5, y: 5, width: 1e25, height: 1e25),
        ]
        for box in boxes {
            let face = Face(detection: FaceDetection(score: 0.9, box: box, keypoints: []), landmarks: nil)
            let metrics = FaceMeasures.measure(frame: frame, faces: [face], thresholds: thresholds)
            XCTAssertEqual(metrics.frameLuma, 90, "\(box)")
            XCTAssertNotNil(metrics.face, "\(box)")
            if let light = metrics.face?.light { XCTAssertEqual(light.meanLuma, 90, "\(box)") }
        }
        // A box that covers the frame is measured on the part inside it.
        let cover = Face(
            detection: FaceDetection(
                score: 0.9, box: Rect(x: -1e30, y: -1e30, width: 2e30, height: 2e30),
                keypoints: []), landmarks: nil)
        XCTAssertEqual(
            FaceMeasures.measure(frame: frame, faces: [cover], thresholds: thresholds).face?.light?.meanLuma,
            90)
    }

    func testMotionPer100Milliseconds() throws {
        var tracker = MotionTracker()
        XCTAssertNil(tracker.update(time: 0, centreX: 0.5, centreY: 0.5, width: 0.4, frameAspect: 4 / 3, lookBack: 0.1))
        var last: MotionMetrics?
        // 30 fps, moving 1 % of the width per frame = 3 % per 100 ms; growing 0.5 % per frame.
        for i in 1...15 {
            let t = Double(i) / 30
            last = tracker.update(
                time: t, centreX: 0.5 + 0.01 * Double(i), centreY: 0.5,
                width: 0.4 * (1 + 0.005 * Double(i)), frameAspect: 4 / 3, lookBack: 0.1)
        }
        let moving = try XCTUnwrap(last)
        XCTAssertEqual(moving.centreSpeed, 0.03, accuracy: 0.002)
        XCTAssertEqual(moving.sizeChange, 0.015, accuracy: 0.002)
        // Standing still: the look-back slides past the movement.
        for i in 16...30 {
            last = tracker.update(
                time: Double(i) / 30, centreX: 0.65, centreY: 0.5, width: 0.43,
                frameAspect: 4 / 3, lookBack: 0.1)
        }
        XCTAssertEqual(try XCTUnwrap(last).centreSpeed, 0, accuracy: 1e-9)
        // Vertical movement counts in frame widths: 3 % of the height is 2.25 % of a 4:3 frame's width.
        tracker.reset()
        for i in 0...6 {
            last = tracker.update(
                time: Double(i) / 30, centreX: 0.5, centreY: 0.5 + 0.01 * Double(i), width: 0.4,
                frameAspect: 4 / 3, lookBack: 0.1)
        }
        XCTAssertEqual(try XCTUnwrap(last).centreSpeed, 0.0225, accuracy: 0.001)
    }
}
