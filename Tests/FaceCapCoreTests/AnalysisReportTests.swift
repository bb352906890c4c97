import Foundation
import XCTest

@testable import FaceCapCore

/// The analyzer's part of `facecap analyze`'s output: valid JSON, nulls where nothing was measured.
final class AnalysisReportTests: XCTestCase {
    private func parse(_ fields: [(String, String)]) throws -> [String: Any] {
        let text = AnalysisReport.object(fields)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    func testPhotoFieldsAreValidJSONWithTheMeasures() throws {
        let (frame, face) = AnalysisFixtures.frame(.init(faceWidth: 0.2))
        let entry = AnalysisReport.photo(frame: frame, faces: [face], thresholds: AnalyzerThresholds())
        let object = try parse(AnalysisReport.fields(entry))
        XCTAssertEqual(object["guidance"] as? [String], ["moveCloser"])
        XCTAssertEqual(object["primary"] as? String, "moveCloser")
        let metrics = try XCTUnwrap(object["metrics"] as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(metrics["faceWidth"] as? Double), 0.2, accuracy: 0.001)
        XCTAssertEqual((metrics["eyeAspectRatio"] as? [Double])?.count, 2)
        XCTAssertTrue(metrics["centreSpeed"] is NSNull, "a photo has no motion")
        XCTAssertNil(object["hints"], "clip fields only for clip frames")

        let faceObject = try parse(AnalysisReport.faceFields(face, thresholds: AnalyzerThresholds()))
        XCTAssertEqual(faceObject["eyesOpen"] as? Bool, true)
        XCTAssertEqual(try XCTUnwrap(faceObject["roll"] as? Double), -0.2, accuracy: 0.3)
        var bare = face
        bare.landmarks = nil
        let bareObject = try parse(AnalysisReport.faceFields(bare, thresholds: AnalyzerThresholds()))
        XCTAssertTrue(bareObject["yaw"] is NSNull)
        XCTAssertTrue(bareObject["eyesOpen"] is NSNull)

        let lines = AnalysisReport.summaryLines(entry, thresholds: AnalyzerThresholds())
        XCTAssertEqual(lines.last, "  guidance: moveCloser (Move closer)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("  pose: yaw ") })
    }

    func testNoFaceAndClipFields() throws {
        let frame = AnalysisFixtures.encode(
            [UInt8](repeating: 20, count: 64 * 48), width: 64, height: 48,
            format: .gray)
        let dark = AnalysisReport.photo(frame: frame, faces: [], thresholds: AnalyzerThresholds())
        let object = try parse(AnalysisReport.fields(dark))
        XCTAssertEqual(object["guidance"] as? [String], ["tooDark"])
        let metrics = try XCTUnwrap(object["metrics"] as? [String: Any])
        XCTAssertEqual(metrics["frameLuma"] as? Double, 20)
        XCTAssertTrue(metrics["faceWidth"] is NSNull)

        var analyzer = Analyzer()
        var last: AnalyzerOutput?
        for i in 0...31 { last = analyzer.decide(AnalysisFixtures.goodMetrics(at: Double(i) / 30)) }
        let entry = AnalysisReport.clipFrame(index: 31, output: try XCTUnwrap(last))
        let clip = try parse(AnalysisReport.fields(entry))
        XCTAssertEqual(clip["primary"] as? String, "ready")
        XCTAssertEqual(clip["stability"] as? Double, 1)
        XCTAssertTrue(clip["capture"] is NSNull, "the capture happened on frame 30")
        XCTAssertTrue(clip["manualFallback"] is NSNull)
        XCTAssertEqual(AnalysisReport.clipLine(entry), "frame 31 t 1.03s, 1 face: ready steady 100 %")
    }

    func testNumbersAndStrings() {
        XCTAssertEqual(AnalysisReport.fixed(-0.126, 2), "-0.13")
        XCTAssertEqual(AnalysisReport.fixed(3, 2), "3")
        XCTAssertEqual(AnalysisReport.fixed(12.5, 1), "12.5")
        XCTAssertEqual(AnalysisReport.fixed(-0.0001, 2), "0")
        XCTAssertEqual(AnalysisReport.number(.nan, 2), "null")
        XCTAssertEqual(AnalysisReport.number(nil, 2), "null")
        XCTAssertEqual(AnalysisReport.signed(4, 0), "+4")
        XCTAssertEqual(AnalysisReport.string("a\"b\\c\n\u{1}"), #""a\"b\\c\n\u0001""#)
    }
}
