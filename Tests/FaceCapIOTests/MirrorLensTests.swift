import Foundation
import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// Mirror lenses told by their flat face, and what is not one: eyes closed, squinting, in shadow or behind clear
/// glasses (docs/calibration.md, "A mirror's flat face"; `CoverMetrics.flatLenses`). The mirrors are drawn on
/// sergey.png as tools/lens_sweep.py draws them on the real-photo set's faces: two ellipses 1.8 × 1.24 eye
/// widths over the eyes, the eye at 0.08 under a reflection graded from the lens's top to its bottom, a bright
/// diagonal streak and a dark rim.
final class MirrorLensTests: XCTestCase {
    private func analyse(_ frame: Frame) throws -> AnalysisReport.Entry { try FaceModelsFixture.analyse(frame) }

    private func fixture(_ name: String) throws -> Frame {
        let frame = try ImageFile.read(path: fixturePath(name))
        XCTAssertEqual(frame.format, .rgb24)
        return frame
    }

    private func eyes(_ frame: Frame) throws -> [(mid: SIMD2<Double>, width: Double)] {
        try FaceModelsFixture.eyes(frame)
    }

    /// Mirror lenses reflecting `top` at the lenses' top and `bottom` at their bottom (RGB), as
    /// tools/lens_sweep.py's `with_lenses` draws them.
    static func mirrors(
        _ frame: Frame, eyes: [(mid: SIMD2<Double>, width: Double)], top: SIMD3<Double>, bottom: SIMD3<Double>
    ) -> Frame {
        var out = frame
        let lenses = eyes.map { (mid: $0.mid - SIMD2(0, 0.08 * $0.width), width: $0.width) }
        let high = lenses.map { $0.mid.y - 0.62 * $0.width }.min() ?? 0
        let low = lenses.map { $0.mid.y + 0.62 * $0.width }.max() ?? 1
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let (fx, fy) = (Double(x) + 0.5, Double(y) + 0.5)
                for lens in lenses {
                    let dx = (fx - lens.mid.x) / (0.9 * lens.width), dy = (fy - lens.mid.y) / (0.62 * lens.width)
                    let r = (dx * dx + dy * dy).squareRoot()
                    guard r < 1 else { continue }
                    let t = min(max((fy - high) / max(low - high, 1), 0), 1)
                    let sky = (1 - t) * top + t * bottom
                    let d = abs((fx - lens.mid.x) + (fy - lens.mid.y) * 0.8) / (0.12 * lens.width)
                    let streak = abs(fy - lens.mid.y) < 0.5 * lens.width ? 80 * exp(-d * d) : 0
                    let rim = r > 1 - 0.08 / 0.62
                    for k in 0..<3 {
                        let i = (y * frame.width + x) * 3 + k
                        let seen = 0.08 * Double(frame.data[i]) + sky[k] + streak
                        out.data[i] = UInt8(min(max(rim ? [25.0, 22, 20][k] : seen, 0), 255))
                    }
                }
            }
        }
        return out
    }

    /// A mirror reflecting a sky over the ground, and a blue one, are covered eyes by their flat face alone (the
    /// rule off, they are not: the lens is bright, flat in tint and steps little to the cheek), and no gaze or
    /// lids are read behind them.
    func testAMirrorLensIsCoveredByItsFlatFace() throws {
        let frame = try fixture("sergey.png")
        let at = try eyes(frame)
        let t = AnalyzerThresholds()
        var without = t
        without.maxLensTexture = 0
        let mirrors: [(String, SIMD3<Double>, SIMD3<Double>)] = [
            ("sky", SIMD3(150, 175, 200), SIMD3(70, 60, 50)), ("blue", SIMD3(60, 110, 190), SIMD3(30, 50, 110)),
        ]
        for (name, top, bottom) in mirrors {
            let report = try analyse(Self.mirrors(frame, eyes: at, top: top, bottom: bottom))
            let cover = try XCTUnwrap(report.metrics.face?.cover)
            let said = "\(name): \(cover); \(report.guidance)"
            XCTAssertTrue(cover.flatLenses(t), said)
            // A mirror has the room's colours, not the skin's (`minLensChroma`).
            let chroma = min(cover.rightEyeChroma ?? .infinity, cover.leftEyeChroma ?? .infinity)
            XCTAssertGreaterThan(chroma, 1.5 * t.minLensChroma, said)
            XCTAssertEqual(cover.regions(t), ["eyes"], said)
            XCTAssertEqual(cover.regions(without), [], said)
            XCTAssertTrue(report.guidance.contains(.faceCovered), said)
            XCTAssertFalse(report.guidance.contains(.eyesClosed), said)
            XCTAssertFalse(report.guidance.contains(.lookStraight), said)
        }
    }

    /// Eyes closed, squinting, in the brow's shadow, in a soft shadow as deep as a lens, or behind clear glasses
    /// keep their lash line or iris: not flat, not even at the hysteresis floor.
    func testEyesClosedSquintingOrShadowedAreNotFlat() throws {
        let t = AnalyzerThresholds()
        var frames: [(String, Frame)] = []
        for name in [
            "eyes/sergey_closed.jpg", "eyes/sergey_eyes_narrow.jpg", "eyes/grace_hopper_eyes_narrow.jpg",
            "eyes/grace_hopper_shadow_brow.jpg", "eyes/grace_hopper_shadow_side.jpg",
        ] {
            frames.append((name, try fixture(name)))
        }
        let sergey = try fixture("sergey.png")
        let at = try eyes(sergey)
        frames.append(("shadow 0.35", LensEdgeTests.shadowed(sergey, eyes: at, gain: 0.35)))
        frames.append(("clear glasses", LensEdgeTests.lenses(sergey, eyes: at, transmission: 1, rim: 0.16)))
        for (name, frame) in frames {
            let cover = try XCTUnwrap(try analyse(frame).metrics.face?.cover, name)
            XCTAssertFalse(cover.flatLenses(t, margin: t.coverHysteresis), "\(name): \(cover)")
            XCTAssertGreaterThan(
                max(cover.rightEyeDip, cover.leftEyeDip), t.maxLensDip * (1 + t.coverHysteresis), "\(name): \(cover)")
        }
    }
}
