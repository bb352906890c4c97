import Foundation
import XCTest

@testable import FaceCapCore

/// MediaPipe's palm detector (palm_detection_full.tflite, mediapipe 0.10.14) through facecap's interpreter against LiteRT's outputs
/// for the same input (Tests/Fixtures/golden/palm_*, made by tools/make_palm_golden.py: obama.jpg letterboxed whole,
/// his hands on his crossed arms). `PalmDecodingTests` decodes them.
final class PalmGoldenTests: XCTestCase {
    func testThePalmModelsOperatorsAreAllImplemented() throws {
        let model = try TestData.palm
        var counts: [TFLiteOperatorCode: Int] = [:]
        for op in model.operators { counts[op.code, default: 0] += 1 }
        XCTAssertEqual(counts[.resizeBilinear], 2, "\(counts)")
        for op in model.operators where op.code == .resizeBilinear {
            XCTAssertEqual(op.options, .resize(alignCorners: false, halfPixelCenters: true))
        }
        let interpreter = try Interpreter(model: model)
        XCTAssertEqual(interpreter.inputShapes, [[1, 192, 192, 3]])
        XCTAssertEqual(Set(interpreter.outputShapes.map { $0.description }), ["[1, 2016, 18]", "[1, 2016, 1]"])
    }

    func testPalmModelMatchesLiteRT() throws {
        let interpreter = try Interpreter(model: try TestData.palm)
        let x = try TestData.golden("palm_input_1x192x192x3.f32")
        XCTAssertEqual(x.count, interpreter.input().count)
        _ = interpreter.input().update(fromContentsOf: x)
        let boxes = try XCTUnwrap(interpreter.outputShapes.firstIndex(of: [1, 2016, 18]))
        let scores = try XCTUnwrap(interpreter.outputShapes.firstIndex(of: [1, 2016, 1]))
        for _ in 0..<2 {
            interpreter.run()
            // Boxes and keypoints are in tensor pixels (up to a few hundred); scores are logits.
            for (index, name, tolerance) in [
                (boxes, "palm_boxes_1x2016x18", Float(5e-4)),
                (scores, "palm_scores_1x2016x1", 1e-4),
            ] {
                let expected = try TestData.golden(name + ".f32")
                XCTAssertEqual(interpreter.output(index).count, expected.count)
                let difference = maxAbsDifference(interpreter.output(index), expected)
                XCTAssertLessThanOrEqual(difference, tolerance, "\(name): max |diff| \(difference)")
                print("palm \(name): max |diff| vs LiteRT = \(difference)")
            }
        }
    }
}
