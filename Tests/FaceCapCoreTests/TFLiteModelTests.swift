import XCTest

@testable import FaceCapCore

/// The flatbuffer reader on real, hand-made and broken files: broken ones are clear errors, never crashes.
final class TFLiteModelTests: XCTestCase {
    private func problem(_ bytes: [UInt8], file: String = "broken.tflite") -> String? {
        do {
            let model = try TFLiteModel(bytes: bytes, name: file)
            _ = try Interpreter(model: model)
            return nil
        } catch {
            XCTAssertTrue(error.message.contains(file), error.message)
            XCTAssertTrue(error.message.contains("make models"), error.message)
            return error.problem
        }
    }

    func testReadsTheDetectorGraph() throws {
        let model = try TestData.detector
        XCTAssertEqual(model.inputs.count, 1)
        XCTAssertEqual(model.tensors[model.inputs[0]].shape, [1, 128, 128, 3])
        XCTAssertEqual(model.outputs.map { model.tensors[$0].name }, ["regressors", "classificators"])
        XCTAssertEqual(model.operators.count, 164)
        XCTAssertEqual(model.operators.filter { $0.code == .dequantize }.count, 74)
        let firstConv = try XCTUnwrap(model.operators.first { $0.code == .conv2D })
        XCTAssertEqual(
            firstConv.options,
            .conv(TFLiteWindow(padding: .same, strideW: 2, strideH: 2, activation: .none)))
    }

    func testWrongMagic() throws {
        var bytes = try TestData.modelBytes("face_detection_short_range.tflite")
        bytes[4] = UInt8(ascii: "X")
        XCTAssertEqual(problem(bytes), "not a TFLite model (the file identifier is not 'TFL3')")
    }

    func testTooShortToBeAModel() {
        XCTAssertTrue(problem([1, 2, 3])?.contains("truncated") ?? false)
        XCTAssertTrue(problem([])?.contains("truncated") ?? false)
    }

    func testTruncatedAtAnyLength() throws {
        let bytes = try TestData.modelBytes("face_detection_short_range.tflite")
        // Cut everywhere in the small files' structure and at spread-out points through the weights.
        var lengths = Array(stride(from: 8, to: 2048, by: 7))
        lengths += stride(from: 2048, to: bytes.count, by: 1499).map { $0 }
        lengths.append(bytes.count - 1)
        for length in lengths {
            let message = problem(Array(bytes[..<length]))
            XCTAssertNotNil(message, "a model cut to \(length) bytes was accepted")
        }
    }

    func testOutOfRangeRootOffset() throws {
        var bytes = try TestData.modelBytes("face_detection_short_range.tflite")
        bytes[0] = 0xff; bytes[1] = 0xff; bytes[2] = 0xff; bytes[3] = 0x7f
        XCTAssertTrue(problem(bytes)?.contains("outside the file") ?? false)
    }

    func testUnknownOperator() {
        var g = GraphBuilder()
        let x = g.activation([1, 4])
        let y = g.activation([1, 4])
        g.op(99, [x], [y])
        g.inputs = [x]; g.outputs = [y]
        let message = problem(g.bytes())
        XCTAssertTrue(message?.contains("builtin operator 99") ?? false, message ?? "accepted")
    }

    func testUnsupportedSchemaVersion() {
        var g = GraphBuilder()
        let x = g.activation([1, 4]), y = g.activation([1, 4])
        g.op(Op.relu, [x], [y])
        g.inputs = [x]; g.outputs = [y]
        XCTAssertEqual(problem(g.bytes(version: 2)), "unsupported schema version 2 (expected 3)")
    }

    func testTensorIndexOutOfRange() {
        var g = GraphBuilder()
        let x = g.activation([1, 4])
        g.op(Op.relu, [x], [7])
        g.inputs = [x]; g.outputs = [x]
        XCTAssertTrue(problem(g.bytes())?.contains("refers to tensor 7") ?? false)
    }

    func testInconsistentShapesAreRejectedNotExecuted() {
        // A 1×1 convolution whose declared output is larger than the window gives.
        var g = GraphBuilder()
        let x = g.activation([1, 2, 2, 1])
        let w = g.constant([1, 1, 1, 1], [1]), b = g.constant([1], [0])
        let y = g.activation([1, 3, 3, 1])
        g.op(Op.conv, [x, w, b], [y], optionsType: 1, options: Op.convOptions(same: false, stride: 1))
        g.inputs = [x]; g.outputs = [y]
        XCTAssertTrue(problem(g.bytes())?.contains("declares output") ?? false)
    }

    func testCorruptedBytesNeverCrash() throws {
        let original = try TestData.modelBytes("face_detection_short_range.tflite")
        var state: UInt32 = 99
        func next() -> Int {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Int(state >> 8)
        }
        // The graph structure sits at the start and end of the file; weights in between.
        let structure = Array(0..<4096) + Array((original.count - 40_000)..<original.count)
        var accepted = 0
        for _ in 0..<150 {
            var bytes = original
            for _ in 0..<4 { bytes[structure[next() % structure.count]] = UInt8(truncatingIfNeeded: next()) }
            if let model = try? TFLiteModel(bytes: bytes, name: "fuzz"),
                let interpreter = try? Interpreter(model: model)
            {
                interpreter.run()  // must not crash or read out of bounds whatever the numbers
                accepted += 1
            }
        }
        XCTAssertLessThan(accepted, 150)
    }
}
