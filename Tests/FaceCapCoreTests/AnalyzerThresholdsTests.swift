import XCTest
@testable import FaceCapCore

final class AnalyzerThresholdsTests: XCTestCase {
    func testDefaultsAreTheSpecsConditions() {
        let t = AnalyzerThresholds()
        XCTAssertEqual(t.minFaceScore, 0.5)
        XCTAssertEqual(t.minFaceWidth, 0.28)
        XCTAssertEqual(t.maxFaceWidth, 0.52)
        XCTAssertEqual(t.maxCentreOffsetX, 0.10)
        XCTAssertEqual(t.minFaceLuma, 60)
        XCTAssertEqual(t.maxDarkFraction, 0.40)
        XCTAssertEqual(t.maxFaceLuma, 205)
        XCTAssertEqual(t.maxBrightFraction, 0.05)
        XCTAssertEqual(t.minLightBalance, 0.55)
        XCTAssertEqual(t.maxYaw, 15)
        XCTAssertEqual(t.maxRoll, 12)
        XCTAssertEqual(t.stabilityWindow, 1.0)
        XCTAssertEqual(t.manualAfter, 30)
        XCTAssertEqual(t.noFaceFallbackAfter, 10)
        XCTAssertEqual(t.primaryPersistence, 0.5)
        XCTAssertEqual(t.minimumDisplay, 0.8)
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
        let t = try AnalyzerThresholds(json: """
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
            ("{\"minFaceWidth\": 0.6, \"maxFaceWidth\": 0.4}",
             "minFaceWidth 0.6 is above maxFaceWidth 0.4, so no face could pass"),
            ("{\"minFaceWidth\": 0.6}", "minFaceWidth 0.6 is above maxFaceWidth 0.52 (the default), so no face could pass"),
            ("{\"maxFaceLuma\": 50}", "minFaceLuma 60 (the default) is above maxFaceLuma 50, so no face could pass"),
        ]
        for (text, detail) in cases {
            XCTAssertThrowsError(try AnalyzerThresholds(json: text), text) { error in
                XCTAssertEqual(error as? ThresholdsError, ThresholdsError(detail))
                XCTAssertEqual((error as? ThresholdsError)?.exitCode, .usage)
            }
        }
        XCTAssertNoThrow(try AnalyzerThresholds(json: "{\"minFaceWidth\": 0.4, \"maxFaceWidth\": 0.4}"), "equal is allowed")
    }
}
