import XCTest

@testable import FaceCapCore

final class AnalyzerThresholdsTests: XCTestCase {
    /// Every default, by name. SPEC §4's conditions (the gate's limits are the built-in validator's, SPEC's
    /// own numbers the `far…` word limits: SPEC §4 "One gate"), then the values calibrated on photos
    /// (docs/calibration.md) or chosen for the wizard: a drift in any of them (an audit moved `pitchOffset`
    /// from 5 to 12 unnoticed) has to change this table on purpose.
    func testEveryDefaultIsPinned() {
        let spec: [String: Double] = [
            "minFaceScore": 0.5,
            "darkFrameLuma": 50.0,
            "secondFaceMinScore": 0.5,
            "secondFaceMinRelativeWidth": 0.25,
            "minFaceWidth": 0.28,
            "maxFaceWidth": 0.52,
            "maxCentreOffsetX": 0.10,
            "maxCentreOffsetY": 0.10,
            "minEdgeMargin": 0.02,
            "minInterEyeDistance": 60.0,
            "minFaceLuma": 60.0,
            "maxDarkFraction": 0.40,
            "maxFaceLuma": 205.0,
            "brightPixelLuma": 250.0,
            "maxBrightFraction": 0.05,
            "minLightBalance": 0.5,
            "maxYaw": 15.0,
            "maxPitch": 15.0,
            "maxRoll": 12.0,
            "farMinFaceLuma": 45.0,
            "farMaxDarkFraction": 0.50,
            "farMaxFaceLuma": 220.0,
            "farMaxBrightFraction": 0.08,
            "farMinLightBalance": 0.40,
            "farMaxYaw": 20.0,
            "farMaxPitch": 20.0,
            "farMaxRoll": 16.0,
            "maxCentreSpeed": 0.02,
            "maxSizeChange": 0.03,
            "primaryPersistence": 0.5,
            "minimumDisplay": 0.8,
            "stabilityWindow": 1.0,
            "unmeasuredRetryHold": 4.0,
            "manualAfter": 30.0,
            "noFaceFallbackAfter": 10.0,
            "motionLookBack": 0.1,
        ]
        let calibrated: [String: Double] = [
            "ovalCentreX": 0.5,
            "ovalCentreY": 0.5,
            "darkPixelLuma": 25.0,
            "pitchOffset": 5.0,
            "minEyeAspectRatio": 0.15,
            "minSharpness": 150.0,
            "geometryHysteresis": 0.02,
            "interEyeHysteresis": 3.0,
            "edgeHysteresis": 0.01,
            "lumaHysteresis": 8.0,
            "fractionHysteresis": 0.2,
            "balanceHysteresis": 0.05,
            "angleHysteresis": 3.0,
            "eyeHysteresis": 0.02,
            "sharpnessHysteresis": 1.2,
            "motionHysteresis": 0.7,
            "secondFaceHysteresis": 0.05,
            "faceScoreHysteresis": 0.05,
            "secondFaceMemory": 1.0,
            // The iris-model eyes and the cover measures (docs/calibration.md, "Eyes" and "Covered faces").
            "minEyeOpening": 0.13,
            "eyeOpeningHysteresis": 0.01,
            "maxPupilShade": 0.40,
            "noPupilOpeningPenalty": 0.04,
            "minEyesClosedTime": 0.3,
            "maxGazeX": 0.06,
            "maxGazeY": 0.04,
            "gazeHysteresis": 0.01,
            "maxIrisToLowerLidDown": -0.12,
            "minGazeOffTime": 0.3,
            "gazeYawFactor": 0.05,
            "gazePitchFactor": 0.0,
            "gazeNeutralY": -0.08,
            "eyeMemory": 0.5,
            "maxLowerFaceChroma": 12.0,
            "minColouredMouthContrast": 0.35,
            "maxMaskMouthChroma": 4.5,
            "minMouthContrast": 0.22,
            "minEyeBrightness": 0.45,
            "maxEyeDarkness": 0.75,
            "minLensEyeWidthRatio": 0.7,
            "maxLensEyeMedian": 0.45,
            "maxLensBelowEye": 0.5,
            "maxLensEyeContrast": 0.3,
            "maxTintedLensEyeBrightness": 0.22,
            "minLensEdge": 1.8,
            "maxLensTexture": 0.055,
            "maxLensDip": 0.18,
            "minLensChroma": 7.0,
            "maxLowerFaceHue": 9.0,
            "maxNeutralLowerFaceSaturation": 0.07,
            "minUpperFaceSaturation": 0.04,
            "maxNeutralLowerFaceLuma": 0.6,
            "minHandOverMouth": 0.5,
            "handMemory": 0.5,
            "minHandOverFace": 0.6,
            "minTurnedHandOverEye": 0.9,
            "coverHysteresis": 0.1,
            // Sized for a person following the words (AnalyzerThresholds, GuidanceSimulationTests).
            "farCentreOffsetX": 0.22,
            "farCentreOffsetY": 0.24,
        ]
        let defaults = AnalyzerThresholds()
        let pinned = spec.merging(calibrated) { first, _ in first }
        XCTAssertEqual(pinned.count, spec.count + calibrated.count, "a name in both tables")
        XCTAssertEqual(Set(pinned.keys), Set(AnalyzerThresholds.fields.map(\.name)), "every field, and only those")
        for field in AnalyzerThresholds.fields {
            XCTAssertEqual(defaults[keyPath: field.keyPath], pinned[field.name], field.name)
        }
    }

    func testEveryFieldIsListedOnceAndHoldsItsDefault() {
        let names = AnalyzerThresholds.fields.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        let defaults = AnalyzerThresholds()
        for field in AnalyzerThresholds.fields {
            XCTAssertTrue(field.range.contains(defaults[keyPath: field.keyPath]), field.name)
        }
        // Every stored property is in the table (Mirror sees them all).
        XCTAssertEqual(Set(Mirror(reflecting: defaults).children.compactMap(\.label)), Set(names))
    }

    func testAConfigFileOverridesOnlyWhatItNames() throws {
        let t = try AnalyzerThresholds(
            json: """
                {
                  "minFaceWidth": 0.25,
                  "stabilityWindow": 1.5, "maxYaw": 1e1
                }
                """)
        XCTAssertEqual(t.minFaceWidth, 0.25)
        XCTAssertEqual(t.stabilityWindow, 1.5)
        XCTAssertEqual(t.maxYaw, 10)
        XCTAssertEqual(t.maxFaceWidth, 0.52)
        XCTAssertEqual(try AnalyzerThresholds(json: " {} "), AnalyzerThresholds())
    }

    func testBadConfigFilesAreRefusedWithTheReason() {
        let cases: [(String, String)] = [
            (#"{"minFaceWidht": 0.3}"#, "unknown threshold 'minFaceWidht'"),
            (#"{"minFaceWidth": 3}"#, "outside"),
            (#"{"minFaceWidth": "0.3"}"#, "expected a number"),
            (#"{"minFaceWidth": 0.3,}"#, "expected a quoted name"),
            (#"{"minFaceWidth": 0.3"#, "expected ',' or '}'"),
            (#"{"minFaceWidth": 0.3} x"#, "expected the end"),
            (#"{"a": 1, "a": 2}"#, "appears twice"),
            (#"{"minFaceWidth": nan}"#, "expected a number"),
            ("", "expected '{'"),
            ("[1]", "expected '{'"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try AnalyzerThresholds(json: text), text) { error in
                let message = (error as? ThresholdsError)?.message ?? ""
                XCTAssertTrue(message.contains(expected), "\(text): \(message)")
                XCTAssertEqual((error as? UserFacingError)?.exitCode, .usage)
            }
        }
    }

    func testOverriddenThresholdsChangeTheGuidance() throws {
        var metrics = AnalysisFixtures.goodMetrics(at: 0)
        metrics.face!.widthRatio = 0.3
        let strict = try AnalyzerThresholds(json: #"{"minFaceWidth": 0.33}"#)
        XCTAssertEqual(GuidanceRules.activeCodes(metrics, thresholds: AnalyzerThresholds()), [])
        XCTAssertEqual(GuidanceRules.activeCodes(metrics, thresholds: strict), [.moveCloser])
    }

    func testAMinimumAboveItsMaximumIsRefused() {
        let cases = [
            (
                "{\"minFaceWidth\": 0.6, \"maxFaceWidth\": 0.4}",
                "minFaceWidth 0.6 is above maxFaceWidth 0.4, so no face could pass"
            ),
            (
                "{\"minFaceWidth\": 0.6}",
                "minFaceWidth 0.6 is above maxFaceWidth 0.52 (the default), so no face could pass"
            ),
            ("{\"maxFaceLuma\": 50}", "minFaceLuma 60 (the default) is above maxFaceLuma 50, so no face could pass"),
        ]
        for (text, detail) in cases {
            XCTAssertThrowsError(try AnalyzerThresholds(json: text), text) { error in
                XCTAssertEqual(error as? ThresholdsError, ThresholdsError(detail))
                XCTAssertEqual((error as? ThresholdsError)?.exitCode, .usage)
            }
        }
        XCTAssertNoThrow(
            try AnalyzerThresholds(json: "{\"minFaceWidth\": 0.4, \"maxFaceWidth\": 0.4}"), "equal is allowed")
    }
}
