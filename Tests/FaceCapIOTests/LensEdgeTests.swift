import Foundation
import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// Lenses that are not dark — a light tint — told by their lower edge, and what is not a lens: clear glasses in
/// a dark frame, and a shadow of the same depth (docs/calibration.md, "The lens's edge";
/// `CoverMetrics.lensEdges`). The lenses and the shadow are drawn here on sergey.png as tools/lens_sweep.py draws them on the real-photo set's faces: two
/// ellipses 1.8 × 1.24 eye widths over the eyes with a dark rim, or a soft blob over each eye socket.
final class LensEdgeTests: XCTestCase {
    private func analyse(_ frame: Frame) throws -> AnalysisReport.Entry { try FaceModelsFixture.analyse(frame) }

    /// sergey.png and each eye's middle and width (FaceMesh corners 33–133 and 362–263) on it.
    private func photo() throws -> (frame: Frame, eyes: [(mid: SIMD2<Double>, width: Double)]) {
        let frame = try ImageFile.read(path: fixturePath("sergey.png"))
        XCTAssertEqual(frame.format, .rgb24)
        return (frame, try FaceModelsFixture.eyes(frame))
    }

    /// Multiplies each pixel by `gain(x, y)` (RGB).
    static func shading(_ frame: Frame, _ gain: (Double, Double) -> Double) -> Frame {
        var out = frame
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let g = gain(Double(x) + 0.5, Double(y) + 0.5)
                guard g != 1 else { continue }
                for k in 0..<3 {
                    let i = (y * frame.width + x) * 3 + k
                    out.data[i] = UInt8(min(max(Double(frame.data[i]) * g, 0), 255))
                }
            }
        }
        return out
    }

    /// Where (x, y) lies against the lens over an eye: < 1 inside the ellipse 1.8 × 1.24 eye widths centred
    /// 0.08 eye widths above the eye's middle (tools/lens_sweep.py), on its outline at 1.
    static func lensRadius(_ x: Double, _ y: Double, _ eye: (mid: SIMD2<Double>, width: Double)) -> Double {
        let dx = (x - eye.mid.x) / (0.9 * eye.width), dy = (y - eye.mid.y + 0.08 * eye.width) / (0.62 * eye.width)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Lenses passing `transmission` of the light, with a dark rim `rim` eye widths wide (0.08 unless given).
    static func lenses(
        _ frame: Frame, eyes: [(mid: SIMD2<Double>, width: Double)], transmission: Double,
        rim: Double = 0.08
    ) -> Frame {
        shading(frame) { x, y in
            for eye in eyes {
                let r = lensRadius(x, y, eye)
                if r < 1 - rim / 0.62 { return transmission }
                if r < 1 { return 0.12 }
            }
            return 1
        }
    }

    /// No lens: each eye socket in a soft shadow, the light times `gain` at its deepest.
    static func shadowed(_ frame: Frame, eyes: [(mid: SIMD2<Double>, width: Double)], gain: Double) -> Frame {
        shading(frame) { x, y in
            var shade = 0.0
            for eye in eyes {
                let dx = (x - eye.mid.x) / (0.9 * eye.width), dy = (y - eye.mid.y + 0.1 * eye.width) / (0.6 * eye.width)
                shade = max(shade, exp(-(dx * dx + dy * dy)))
            }
            return 1 - (1 - gain) * shade
        }
    }

    /// Clear glasses (no tint) in a dark frame are not covered eyes, however thick the frame's lower rim (up to 0.2
    /// eye widths, six rows of the strip), not even at the hysteresis floor a face already told to uncover is judged at.
    func testClearGlassesInADarkFrameAreNotALens() throws {
        let (frame, eyes) = try photo()
        let t = AnalyzerThresholds()
        for rim in [0.04, 0.08, 0.12, 0.16, 0.20] {
            let report = try analyse(Self.lenses(frame, eyes: eyes, transmission: 1, rim: rim))
            let cover = try XCTUnwrap(report.metrics.face?.cover)
            let said = "rim \(rim): lensEdge \(cover.rightLensEdge), \(cover.leftLensEdge); \(report.guidance)"
            XCTAssertFalse(cover.regions(t, margin: t.coverHysteresis).contains("eyes"), said)
            XCTAssertFalse(report.guidance.contains(.faceCovered), said)
        }
    }

    func testALightLensIsSeenByItsEdge() throws {
        let (frame, eyes) = try photo()
        let t = AnalyzerThresholds()
        var edgeOnly = t
        edgeOnly.minEyeBrightness = 0
        edgeOnly.maxLensEyeMedian = 0
        edgeOnly.maxTintedLensEyeBrightness = 0
        edgeOnly.maxEyeDarkness = .infinity
        var edgeless = edgeOnly
        edgeless.minLensEdge = .infinity
        let report = try analyse(Self.lenses(frame, eyes: eyes, transmission: 0.45))
        let cover = try XCTUnwrap(report.metrics.face?.cover)
        XCTAssertGreaterThan(min(cover.rightLensEdge, cover.leftLensEdge), t.minLensEdge, "\(cover)")
        XCTAssertEqual(cover.regions(t), ["eyes"], "\(cover)")
        // Without any darkness rule the lens's edge alone tells it (on this face the lens also darkens the band
        // below the eye, so the dark-lens signs see it too; on others they do not: docs/calibration.md).
        XCTAssertEqual(cover.regions(edgeOnly), ["eyes"], "\(cover)")
        XCTAssertEqual(cover.regions(edgeless), [], "\(cover)")
        XCTAssertTrue(report.guidance.contains(.faceCovered), "\(report.guidance)")
        XCTAssertFalse(report.guidance.contains(.eyesClosed), "\(report.guidance)")
    }

    func testAShadowAsDeepAsALightLensIsNotALens() throws {
        let (frame, eyes) = try photo()
        let t = AnalyzerThresholds()
        for gain in [0.35, 0.45] {
            let report = try analyse(Self.shadowed(frame, eyes: eyes, gain: gain))
            let cover = try XCTUnwrap(report.metrics.face?.cover)
            XCTAssertLessThan(
                max(cover.rightLensEdge, cover.leftLensEdge), t.minLensEdge * (1 - t.coverHysteresis),
                "\(gain): \(cover)")
            XCTAssertEqual(cover.regions(t, margin: t.coverHysteresis), [], "\(gain): \(cover)")
            XCTAssertFalse(report.guidance.contains(.faceCovered), "\(gain): \(report.guidance)")
        }
    }

    func testTheEdgeRuleWantsBothEyes() {
        let t = AnalyzerThresholds()
        var cover = CoverMetrics(
            presence: 40, lowerFaceChroma: 0, mouthContrast: 0.8, mouthChroma: 10,
            rightEyeBrightness: 0.9, leftEyeBrightness: 0.9, rightEyeDarkness: 0.3,
            leftEyeDarkness: 0.3)
        cover.rightEyeMedian = 0.8
        cover.leftEyeMedian = 0.8
        cover.rightBelowEye = 0.9
        cover.leftBelowEye = 0.9
        cover.rightEyeContrast = 0.7
        cover.leftEyeContrast = 0.7
        cover.rightLensEdge = 1.2 * t.minLensEdge
        cover.leftLensEdge = 1.2 * t.minLensEdge
        XCTAssertEqual(cover.regions(t), ["eyes"])
        cover.leftLensEdge = 0.95 * t.minLensEdge
        XCTAssertEqual(cover.regions(t), [], "one cheek's step is a crease or a cast shadow, not glasses")
        XCTAssertEqual(cover.regions(t, margin: t.coverHysteresis), ["eyes"], "held by the hysteresis")
        cover.leftLensEdge = 1.2 * t.minLensEdge
        cover.leftEyeWidthRatio = 0.6
        XCTAssertEqual(cover.regions(t), [], "a near-profile's far eye says nothing")
    }
}
