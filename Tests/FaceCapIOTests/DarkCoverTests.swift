import Foundation
import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// Dark masks, dark lenses with a reflection, and eyes in hard light (tools/make_cover_frames.py: `mask_<colour>_<reach>`,
/// `sunglasses_reflect`, `shadow_brow`, `shadow_side`; docs/calibration.md, "Dark masks" and "A dark lens told from
/// a shadowed eye"). Each fixture was read wrongly before its rule: the dark masks' cheeks (the skin reference) lie
/// on the mask, the reflection is the lens's brightest tenth, and the shadowed eyes read as lenses.
final class DarkCoverTests: XCTestCase {
    /// Black and charcoal masks reaching up under the eyes (`high`: the top edge across the nose's middle, 197) or
    /// less far (`mid`: 195).
    static let darkMasks = [
        "eyes/sergey_mask_black_high.jpg", "eyes/sergey_mask_charcoal_mid.jpg",
        "eyes/grace_hopper_mask_black_high.jpg", "eyes/grace_hopper_mask_charcoal_high.jpg",
    ]
    static let reflectingLenses = ["eyes/sergey_sunglasses_reflect.jpg", "eyes/grace_hopper_sunglasses_reflect.jpg"]
    /// Uncovered eyes: in the brow's shadow (light from above), and with light from one side.
    static let shadowed = [
        "eyes/sergey_shadow_brow.jpg", "eyes/grace_hopper_shadow_brow.jpg",
        "eyes/sergey_shadow_side.jpg", "eyes/grace_hopper_shadow_side.jpg",
    ]

    private func analyse(_ name: String) throws -> AnalysisReport.Entry {
        try FaceModelsFixture.analyse(try ImageFile.read(path: fixturePath(name)))
    }

    private func cover(_ name: String) throws -> CoverMetrics {
        try XCTUnwrap(try analyse(name).metrics.face?.cover, "\(name): landmarks found")
    }

    func testDarkMasksAreSeenByTheirNeutralDarkLowerFace() throws {
        let t = AnalyzerThresholds()
        var without = t
        without.maxNeutralLowerFaceSaturation = 0
        for name in Self.darkMasks {
            let cover = try cover(name)
            let saturation = try XCTUnwrap(cover.lowerFaceSaturation, name)
            XCTAssertLessThan(saturation, 0.8 * t.maxNeutralLowerFaceSaturation, "\(name): \(cover)")
            XCTAssertLessThan(try XCTUnwrap(cover.lowerToUpperLuma), 0.8 * t.maxNeutralLowerFaceLuma, name)
            XCTAssertTrue(cover.regions(t).contains("mouth"), "\(name): \(cover)")
            // The other mouth rules miss it: the cheeks they measure against lie on the mask.
            XCTAssertFalse(cover.regions(without).contains("mouth"), "\(name): \(cover)")
        }
    }

    func testSkinAndHairAreNotNeutralAndDark() throws {
        // Bare faces (obama's dark skin among the calibration photos; here sergey and grace_hopper), beards,
        // moustaches, stubble and fringes keep a colour of their own in the lower face.
        let t = AnalyzerThresholds()
        for name in EyeFixtures.open + EyeFixtures.hair.map(\.0) + Self.shadowed {
            let cover = try cover(name)
            XCTAssertFalse(cover.neutralDark(t, margin: t.coverHysteresis), "\(name): \(cover)")
            XCTAssertGreaterThan(
                try XCTUnwrap(cover.lowerFaceSaturation), 1.2 * t.maxNeutralLowerFaceSaturation,
                "\(name): \(cover)")
        }
    }

    func testADarkLensWithAReflectionIsSeenAndNoGazeReadBehindIt() throws {
        let t = AnalyzerThresholds()
        var brightestTenthOnly = t
        brightestTenthOnly.maxLensEyeMedian = 0
        brightestTenthOnly.minLensEdge = .infinity
        for name in Self.reflectingLenses {
            let report = try analyse(name)
            let cover = try XCTUnwrap(report.metrics.face?.cover, name)
            XCTAssertEqual(cover.regions(t), ["eyes"], "\(name): \(cover)")
            // The reflection is the lens's brightest tenth: that rule alone misses it.
            XCTAssertEqual(cover.regions(brightestTenthOnly), [], "\(name): \(cover)")
            XCTAssertTrue(report.guidance.contains(.faceCovered), "\(name): \(report.guidance)")
            XCTAssertFalse(report.guidance.contains(.lookStraight), "\(name): no gaze behind the lens")
            XCTAssertFalse(report.guidance.contains(.eyesClosed), "\(name): no lids behind the lens")
        }
    }

    func testShadowedEyesAreNotLenses() throws {
        let t = AnalyzerThresholds()
        var darkAlone = t
        darkAlone.maxLensBelowEye = 10
        for name in Self.shadowed {
            let report = try analyse(name)
            let cover = try XCTUnwrap(report.metrics.face?.cover, name)
            XCTAssertEqual(cover.regions(t), [], "\(name): \(cover)")
            XCTAssertEqual(cover.regions(t, margin: t.coverHysteresis), [], "\(name): \(cover)")
            XCTAssertFalse(report.guidance.contains(.faceCovered), "\(name): \(report.guidance)")
        }
        // In the brow's shadow the eye is as dark as behind a lens: the lit band below it tells them apart.
        for name in Self.shadowed where name.contains("brow") {
            XCTAssertFalse(try cover(name).regions(darkAlone).isEmpty, name)
        }
    }

    func testTheLensMeasuresFollowTheirRule() {
        let t = AnalyzerThresholds()
        var cover = CoverMetrics(
            presence: 40, lowerFaceChroma: 0, mouthContrast: 0.8, mouthChroma: 10,
            rightEyeBrightness: 0.9, leftEyeBrightness: 0.9, rightEyeMedian: 0.3,
            leftEyeMedian: 0.3, rightBelowEye: 0.3, leftBelowEye: 0.3, rightEyeContrast: 0.7,
            leftEyeContrast: 0.7, rightEyeDarkness: 0.3, leftEyeDarkness: 0.3)
        XCTAssertEqual(cover.regions(t), ["eyes"], "a dark median, dark below: a lens that reflects")
        cover.rightBelowEye = 0.8
        XCTAssertEqual(cover.regions(t), ["eye"], "lit below and not flat: that eye is shadowed, not behind a lens")
        cover.rightEyeContrast = 0.1
        XCTAssertEqual(cover.regions(t), ["eyes"], "a flat dark opening is a lens however lit below")
        cover.rightEyeMedian = 0.6
        XCTAssertEqual(cover.regions(t), ["eye"], "not dark: no lens")
    }

    func testAnEyeDarkerThanAnyShadowIsBehindALens() {
        // A see-through tint (tools/lens_sweep.py): the eye shows through, so the opening keeps its contrast, and
        // the band below the eye is lit; only its darkness tells.
        let t = AnalyzerThresholds()
        var cover = CoverMetrics(
            presence: 40, lowerFaceChroma: 0, mouthContrast: 0.8, mouthChroma: 10,
            rightEyeBrightness: 0.15, leftEyeBrightness: 0.15, rightEyeMedian: 0.08,
            leftEyeMedian: 0.08, rightBelowEye: 0.9, leftBelowEye: 0.9, rightEyeContrast: 0.8,
            leftEyeContrast: 0.8, rightEyeDarkness: 0.05, leftEyeDarkness: 0.05)
        XCTAssertEqual(cover.regions(t), ["eyes"], "darker than any shadow: a lens")
        var without = t
        without.maxTintedLensEyeBrightness = 0
        XCTAssertEqual(cover.regions(without), [], "the band below and the contrast alone miss it")
        // The darkest shadowed eye constructed (obama3.jpg, the brow's shadow at 35 % of the light): not a lens,
        // with the hysteresis margin too.
        cover.rightEyeBrightness = 0.31
        cover.leftEyeBrightness = 0.31
        cover.rightEyeMedian = 0.2
        cover.leftEyeMedian = 0.2
        XCTAssertEqual(cover.regions(t), [])
        XCTAssertEqual(cover.regions(t, margin: t.coverHysteresis), [])
    }
}
