import XCTest

@testable import FaceCapCore

/// Both models against LiteRT's outputs for the same inputs (Tests/Fixtures/golden, see SOURCES.md).
final class InferenceGoldenTests: XCTestCase {
    private func check(model: TFLiteModel, input: String, outputs: [String], tolerance: Float) throws {
        let interpreter = try Interpreter(model: model)
        let x = try TestData.golden(input)
        XCTAssertEqual(x.count, interpreter.input().count)
        _ = interpreter.input().update(fromContentsOf: x)
        // Twice: the second run checks that nothing depends on memory left over from the first.
        for _ in 0..<2 {
            interpreter.run()
            for (index, name) in outputs.enumerated() {
                let expected = try TestData.golden(name)
                let actual = interpreter.output(index)
                XCTAssertEqual(actual.count, expected.count, name)
                let difference = maxAbsDifference(actual, expected)
                XCTAssertLessThanOrEqual(difference, tolerance, "\(name): max |diff| \(difference)")
                print("\(name): max |diff| vs LiteRT = \(difference)")
            }
        }
    }

    func testDetectorMatchesLiteRT() throws {
        try check(
            model: try TestData.detector, input: "det_input_1x128x128x3.f32",
            outputs: ["det_regressors_1x896x16.f32", "det_classificators_1x896x1.f32"], tolerance: 1e-3)
    }

    func testLandmarksMatchLiteRT() throws {
        try check(
            model: try TestData.landmarks, input: "mesh_input_1x192x192x3.f32",
            outputs: ["mesh_landmarks_1x1x1x1404.f32", "mesh_faceflag_1x1x1x1.f32"], tolerance: 1e-3)
    }
}
