import XCTest

@testable import FaceCapCore

/// The mirror rule's blur gate (`CoverMetrics.regions(blurry:)`) is `blurry`'s own decision, hysteresis included:
/// flat eyes are lenses on a sharp face, not on a blurry one, and a sharpness that wobbles between `minSharpness`
/// (150) and its clearing level (`sharpnessHysteresis`: 180) never says `blurry` and `faceCovered` together nor
/// flips the cover on and off while `blurry` holds.
final class MirrorBlurGateTests: XCTestCase {
    let t = AnalyzerThresholds()

    /// Both eyes flat, seen full width, nothing else covered (`AnalysisFixtures.flatEyes`).
    private func flatEyes() -> CoverMetrics { AnalysisFixtures.flatEyes(t) }

    private func metrics(sharpness: Double, cover: CoverMetrics) -> FrameMetrics {
        var m = AnalysisFixtures.goodMetrics(at: 0)
        m.face?.sharpness = sharpness
        m.face?.cover = cover
        return m
    }

    func testFlatEyesAreLensesOnASharpFaceOnly() {
        let cover = flatEyes()
        XCTAssertEqual(cover.regions(t), ["eyes"])
        XCTAssertEqual(cover.regions(t, blurry: true), [], "a blurry face's flat eyes are not lenses")
        XCTAssertEqual(cover.regions(t, margin: t.coverHysteresis, blurry: true), [], "nor at the hysteresis margin")
        XCTAssertEqual(GuidanceRules.activeCodes(metrics(sharpness: 500, cover: cover), thresholds: t), [.faceCovered])
        XCTAssertEqual(GuidanceRules.activeCodes(metrics(sharpness: 100, cover: cover), thresholds: t), [.blurry])
        // The other eye signs still count on a blurry face: dark lenses are no blur's doing.
        var dark = cover
        (dark.rightEyeBrightness, dark.leftEyeBrightness, dark.rightBelowEye, dark.leftBelowEye) = (0.2, 0.2, 0.3, 0.3)
        XCTAssertEqual(dark.regions(t, blurry: true), ["eyes"])
        XCTAssertEqual(
            GuidanceRules.activeCodes(metrics(sharpness: 100, cover: dark), thresholds: t), [.faceCovered, .blurry])
    }

    /// An eye squeezed shut and blurred (σ 1.5–2 px, still sharp enough to be judged) is flat and dips little as a
    /// mirror does, but its lids have the skin's colour (the real set's ft3_06: eye chroma 0.8–0.9): each lens
    /// must be `minLensChroma` from the skin, at the hysteresis margin too; an eye whose colour was not measured
    /// (a bright mirror clips) passes.
    func testAFlatEyeOfTheSkinsColourIsNoLens() {
        var cover = flatEyes()
        XCTAssertEqual(cover.regions(t), ["eyes"], "colour not measured: the flat face alone")
        (cover.rightEyeChroma, cover.leftEyeChroma) = (20, 20)
        XCTAssertEqual(cover.regions(t), ["eyes"], "a mirror's colour")
        (cover.rightEyeChroma, cover.leftEyeChroma) = (0.8, 0.9)
        XCTAssertEqual(cover.regions(t), [], "lids of the skin's colour")
        XCTAssertEqual(cover.regions(t, margin: t.coverHysteresis), [], "nor at the hysteresis margin")
        (cover.rightEyeChroma, cover.leftEyeChroma) = (20, 0.9)
        XCTAssertEqual(cover.regions(t), [], "both lenses must have a colour of their own")
        (cover.rightEyeChroma, cover.leftEyeChroma) = (20, nil)
        XCTAssertEqual(cover.regions(t), ["eyes"])
        // However smooth: a palm laid over an eye is the hand rule's, not a mirror (no palm exception).
        (cover.rightEyeChroma, cover.leftEyeChroma) = (0.8, 0.9)
        (cover.rightEyeTexture, cover.leftEyeTexture) = (0.005, 0.005)
        XCTAssertEqual(cover.regions(t), [], "a flat face of the skin's colour, however smooth")
        (cover.rightEyeTexture, cover.leftEyeTexture) = (0.5 * t.maxLensTexture, 0.5 * t.maxLensTexture)
        (cover.rightEyeChroma, cover.leftEyeChroma) = (t.minLensChroma, t.minLensChroma)
        XCTAssertEqual(cover.regions(t), ["eyes"], "the limit itself is a lens")
        (cover.rightEyeChroma, cover.leftEyeChroma) = (0.95 * t.minLensChroma, 0.95 * t.minLensChroma)
        XCTAssertEqual(cover.regions(t), [])
        XCTAssertEqual(cover.regions(t, margin: t.coverHysteresis), ["eyes"], "held by the hysteresis")
        let walk: [(Double, [GuidanceCode])] = [
            (20, [.faceCovered]), (0.95 * t.minLensChroma, [.faceCovered]), (1, []),
        ]
        var previous: Set<GuidanceCode> = []
        for (chroma, expected) in walk {
            (cover.rightEyeChroma, cover.leftEyeChroma) = (chroma, chroma)
            let codes = GuidanceRules.activeCodes(
                metrics(sharpness: 500, cover: cover), previous: previous, thresholds: t)
            XCTAssertEqual(codes, expected, "chroma \(chroma)")
            previous = Set(codes)
        }
    }

    /// Frame by frame, each frame's codes the next one's `previous` (as the analyzer feeds them), the sharpness
    /// walks across 150 and 180: the mirror reading follows `blurry`'s hysteresis.
    func testTheFlatLensReadingFollowsBlurrysHysteresis() {
        XCTAssertEqual(t.minSharpness, 150)
        XCTAssertEqual(t.minSharpness * t.sharpnessHysteresis, 180, accuracy: 1e-9)
        let walk: [(Double, [GuidanceCode])] = [
            (200, [.faceCovered]), (160, [.faceCovered]), (151, [.faceCovered]),
            (149, [.blurry]),  // blurry from here
            (151, [.blurry]), (160, [.blurry]), (179, [.blurry]),  // held until 180: no mirror reading either
            (181, [.faceCovered]),  // cleared
            (160, [.faceCovered]), (149, [.blurry]), (175, [.blurry]), (140, [.blurry]), (185, [.faceCovered]),
        ]
        var previous: Set<GuidanceCode> = []
        for (k, (sharpness, expected)) in walk.enumerated() {
            let codes = GuidanceRules.activeCodes(
                metrics(sharpness: sharpness, cover: flatEyes()), previous: previous, thresholds: t)
            XCTAssertEqual(codes, expected, "frame \(k), sharpness \(sharpness)")
            XCTAssertNotEqual(codes.contains(.blurry), codes.contains(.faceCovered), "frame \(k)")
            previous = Set(codes)
        }
    }

    /// Both eyes must be flat and dip little, each seen nearly full width.
    func testTheFlatRuleWantsBothEyesFlatAndWithoutADarkFeature() {
        var cover = flatEyes()
        XCTAssertEqual(cover.regions(t), ["eyes"])
        cover.leftEyeTexture = 1.2 * t.maxLensTexture
        XCTAssertEqual(cover.regions(t), [], "one textured eye is an eye")
        cover.leftEyeTexture = 0.5 * t.maxLensTexture
        cover.rightEyeDip = 1.2 * t.maxLensDip
        XCTAssertEqual(cover.regions(t), [], "a smooth but dark-lined eye (blurred) is an eye")
        cover.rightEyeDip = 0.5 * t.maxLensDip
        cover.rightEyeWidthRatio = 0.6
        XCTAssertEqual(cover.regions(t), [], "a near-profile's far eye says nothing")
        cover.rightEyeWidthRatio = 1
        XCTAssertEqual(cover.regions(t), ["eyes"])
        // A blurred face is flat everywhere (the real set's blur4 frames dip to 0.185-0.201 with the eyes open): not
        // read on a face judged `blurry` (`GuidanceRules` decides it, with its hysteresis: the tests above).
        XCTAssertEqual(cover.regions(t, blurry: true), [], "a blurry face's eyes are not lenses")
        XCTAssertEqual(cover.regions(t, margin: t.coverHysteresis, blurry: true), [], "nor at the hysteresis margin")
    }
}
