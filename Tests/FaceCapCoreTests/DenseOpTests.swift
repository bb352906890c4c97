import XCTest

@testable import FaceCapCore

/// MEAN, FULLY_CONNECTED and LOGISTIC (the hand-landmark model's head) on small graphs with hand-computed
/// values; the whole model against LiteRT is in HandGoldenTests.
final class DenseOpTests: XCTestCase {
    private func mean(shape: [Int], axes: [Int32], keepDims: Bool, output: [Int]) throws -> [Float] {
        var g = GraphBuilder()
        let x = g.activation(shape)
        let a = g.constantInt32([axes.count], axes)
        let y = g.activation(output)
        g.op(Op.mean, [x, a], [y], optionsType: 27, options: [(0, .u8(keepDims ? 1 : 0))])
        g.inputs = [x]
        g.outputs = [y]
        return try g.run((0..<shape.reduce(1, *)).map(Float.init))
    }

    func testMeanOverHeightAndWidth() throws {
        // 1×2×3×2: channel 0 holds 0, 2, 4, …, 10 (mean 5), channel 1 holds 1, 3, …, 11 (mean 6).
        XCTAssertEqual(try mean(shape: [1, 2, 3, 2], axes: [1, 2], keepDims: false, output: [1, 2]), [5, 6])
        XCTAssertEqual(try mean(shape: [1, 2, 3, 2], axes: [2, -3], keepDims: true, output: [1, 1, 1, 2]), [5, 6])
        // Over W only: rows (0…5) and (6…11) per channel.
        XCTAssertEqual(try mean(shape: [1, 2, 3, 2], axes: [2], keepDims: false, output: [1, 2, 2]), [2, 3, 8, 9])
    }

    func testMeanRefusesWhatItCannotDo() {
        XCTAssertThrowsError(try mean(shape: [1, 2, 3, 2], axes: [1, 3], keepDims: false, output: [1, 3])) { error in
            XCTAssertTrue("\(error)".contains("only adjacent axes"), "\(error)")
        }
        XCTAssertThrowsError(try mean(shape: [1, 2, 3, 2], axes: [1, 2], keepDims: false, output: [1, 1, 2])) {
            XCTAssertTrue("\($0)".contains("the axes give [1, 2]"), "\($0)")
        }
    }

    private func fullyConnected(
        input: [Float], rows: Int, weights: [Float], units: Int, bias: [Float]?,
        activation: UInt8
    ) throws -> [Float] {
        var g = GraphBuilder()
        let depth = weights.count / units
        let x = g.activation([rows, depth])
        let w = g.constant([units, depth], weights)
        let b = bias.map { g.constant([units], $0) } ?? -1
        let y = g.activation([rows, units])
        g.op(
            Op.fullyConnected, bias == nil ? [x, w] : [x, w, b], [y], optionsType: 8,
            options: [(0, .u8(activation))])
        g.inputs = [x]
        g.outputs = [y]
        return try g.run(input)
    }

    func testFullyConnected() throws {
        // Depth 11 (an 8-wide block and a remainder of 3), 2 units, 2 rows.
        let x = (0..<22).map { Float($0) }
        let w = (0..<11).map { _ in Float(1) } + (0..<11).map { Float($0 % 2 == 0 ? 1 : -1) }
        // Row 0: Σ0…10 = 55; alternating 0−1+2−…+10 = 5. Row 1: Σ11…21 = 176; 11−12+…+21 = 16.
        XCTAssertEqual(
            try fullyConnected(input: x, rows: 2, weights: w, units: 2, bias: [1, -20], activation: 0),
            [56, -15, 177, -4])
        XCTAssertEqual(
            try fullyConnected(input: x, rows: 2, weights: w, units: 2, bias: [1, -20], activation: 1),
            [56, 0, 177, 0])
        XCTAssertEqual(
            try fullyConnected(input: x, rows: 2, weights: w, units: 2, bias: nil, activation: 3),
            [6, 5, 6, 6])
    }

    func testLogistic() throws {
        var g = GraphBuilder()
        let x = g.activation([1, 4])
        let y = g.activation([1, 4])
        g.op(Op.logistic, [x], [y])
        g.inputs = [x]
        g.outputs = [y]
        let out = try g.run([0, 2, -2, -40])
        let expected: [Float] = [0.5, 0.880797, 0.119203, 4.248e-18]
        for (a, b) in zip(out, expected) { XCTAssertEqual(a, b, accuracy: 1e-6) }
    }
}

/// The hand-landmark model (MediaPipe hand_landmark_full.tflite) against LiteRT's outputs for the same input
/// (Tests/Fixtures/golden/hand_*, made by tools/make_hand_golden.py): the mouth crop of a constructed hand
/// across sergey's mouth.
final class HandGoldenTests: XCTestCase {
    func testHandModelMatchesLiteRT() throws {
        let interpreter = try Interpreter(model: try TestData.hand)
        XCTAssertEqual(interpreter.inputShapes, [[1, 224, 224, 3]])
        XCTAssertEqual(interpreter.outputShapes, [[1, 63], [1, 1], [1, 1], [1, 63]])
        let x = try TestData.golden("hand_input_1x224x224x3.f32")
        XCTAssertEqual(x.count, interpreter.input().count)
        _ = interpreter.input().update(fromContentsOf: x)
        for _ in 0..<2 {
            interpreter.run()
            // Landmarks are in crop pixels (0…224); the flag and handedness are probabilities.
            for (index, name, tolerance) in [
                (0, "hand_landmarks_1x63", Float(2e-3)), (1, "hand_flag_1x1", 1e-5),
                (2, "hand_handedness_1x1", 1e-5), (3, "hand_world_1x63", 1e-5),
            ] {
                let expected = try TestData.golden(name + ".f32")
                let difference = maxAbsDifference(interpreter.output(index), expected)
                XCTAssertLessThanOrEqual(difference, tolerance, "\(name): max |diff| \(difference)")
                print("hand \(name): max |diff| vs LiteRT = \(difference)")
            }
        }
        XCTAssertGreaterThan(interpreter.output(1)[0], 0.5, "the golden crop shows a hand")
    }
}
