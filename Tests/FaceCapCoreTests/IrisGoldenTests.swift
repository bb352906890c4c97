import XCTest

@testable import FaceCapCore

/// The iris model against LiteRT's outputs for the same inputs (Tests/Fixtures/golden/iris_*, made by
/// tools/make_iris_golden.py): sergey.png's two eye crops, the second one mirrored as the model expects.
final class IrisGoldenTests: XCTestCase {
    func testIrisModelMatchesLiteRT() throws {
        let landmarker = try IrisLandmarker(model: try TestData.iris)
        let interpreter = landmarker.interpreter
        let sizes = interpreter.outputShapes.map { $0.reduce(1, *) }
        XCTAssertEqual(Set(sizes), [213, 15])
        for eye in ["r", "l"] {
            let x = try TestData.golden("iris_sergey_\(eye)_input_1x64x64x3.f32")
            XCTAssertEqual(x.count, interpreter.input().count)
            _ = interpreter.input().update(fromContentsOf: x)
            for _ in 0..<2 {
                interpreter.run()
                for (name, count) in [("contours_1x213", 213), ("iris_1x15", 15)] {
                    let expected = try TestData.golden("iris_sergey_\(eye)_\(name).f32")
                    let actual = interpreter.output(try XCTUnwrap(sizes.firstIndex(of: count)))
                    XCTAssertEqual(actual.count, expected.count)
                    let difference = maxAbsDifference(actual, expected)
                    XCTAssertLessThanOrEqual(difference, 1e-3, "\(eye) \(name): max |diff| \(difference)")
                    print("iris \(eye) \(name): max |diff| vs LiteRT = \(difference)")
                }
            }
        }
    }

    /// Two images through one run of a batch of two give, each, what a run of batch 1 gives, bit for bit: the
    /// 1×1 layers as one GEMM over both, the small 2×2 layers through their patch copy, the rest image by image.
    func testBatchOfTwoIsBitIdenticalToSingleRuns() throws {
        let model = try TestData.iris
        let single = try Interpreter(model: model)
        let pair = try Interpreter(model: model, batch: 2)
        XCTAssertEqual(pair.batch, 2)
        var state: UInt32 = 7
        for image in 0..<2 {
            let input = pair.input(0, image: image)
            for i in input.indices {
                state = state &* 1_664_525 &+ 1_013_904_223
                input[i] = Float(state >> 8) / Float(1 << 24)
            }
        }
        pair.run()
        for image in 0..<2 {
            _ = single.input().update(fromContentsOf: pair.input(0, image: image))
            single.run()
            for output in 0..<2 {
                XCTAssertEqual(
                    Array(pair.output(output, image: image)), Array(single.output(output)),
                    "image \(image), output \(output)")
            }
        }
        // One image of the pair's interpreter: image 0 again, the same values.
        _ = pair.input(0, image: 0).update(fromContentsOf: single.input())
        pair.run(images: 1)
        XCTAssertEqual(Array(pair.output(0, image: 0)), Array(single.output(0)))
    }

    /// A second interpreter of the same model uses the first one's packed weights (no second copy), computes the
    /// same outputs, and keeps them alive when the first is gone.
    func testInterpretersOfOneModelShareTheirWeights() throws {
        let model = try TestData.iris
        var first: Interpreter? = try Interpreter(model: model)
        // (`first` may itself use the weights of an interpreter another test left alive.)
        let buffers = try XCTUnwrap(first).constantBuffers
        XCTAssertGreaterThan(buffers.owned + buffers.borrowed, 0)
        let second = try Interpreter(model: model, batch: 2)
        XCTAssertEqual(second.constantBuffers.owned, 0)
        XCTAssertEqual(second.constantBuffers.borrowed, buffers.owned + buffers.borrowed)
        let x = try TestData.golden("iris_sergey_r_input_1x64x64x3.f32")
        _ = try XCTUnwrap(first).input().update(fromContentsOf: x)
        try XCTUnwrap(first).run()
        let expected = Array(try XCTUnwrap(first).output(0))
        first = nil
        _ = second.input().update(fromContentsOf: x)
        second.run(images: 1)
        XCTAssertEqual(Array(second.output(0)), expected)
    }

    func testAnotherModelIsRefused() throws {
        XCTAssertThrowsError(try IrisLandmarker(model: try TestData.landmarks)) { error in
            XCTAssertTrue("\(error)".contains("not the iris landmark model"), "\(error)")
        }
    }

    /// The ROI: centred between the corners, 2.3 × their distance, level with them; and the mirrored eye's
    /// points come back un-mirrored (the crop of a mirror-symmetric pattern gives mirror-symmetric points).
    func testROIAndMirroring() throws {
        let roi = IrisLandmarker.roi(from: SIMD3(100, 50, 0), to: SIMD3(140, 60, 0))
        XCTAssertEqual(roi.centre.x, 120, accuracy: 1e-4)
        XCTAssertEqual(roi.centre.y, 55, accuracy: 1e-4)
        XCTAssertEqual(roi.side, 92, accuracy: 1e-4)
        XCTAssertEqual(roi.rotation, atan2f(10, 40), accuracy: 1e-6)

        let landmarker = try IrisLandmarker(model: try TestData.iris)
        // A left-right symmetric picture: a dark disc in the middle of a light square.
        let side = 64
        var data = [UInt8](repeating: 200, count: side * side * 3)
        for y in 0..<side {
            for x in 0..<side where hypotf(Float(x) + 0.5 - 32, Float(y) + 0.5 - 32) < 8 {
                data[(y * side + x) * 3] = 40; data[(y * side + x) * 3 + 1] = 30; data[(y * side + x) * 3 + 2] = 30
            }
        }
        let frame = Frame(format: .rgb24, width: side, height: side, data: data)
        let square = FaceROI(centre: Point2(x: 32, y: 32), side: 64, rotation: 0)
        let plain = try XCTUnwrap(landmarker.eye(in: frame, roi: square, flipped: false))
        let mirrored = try XCTUnwrap(landmarker.eye(in: frame, roi: square, flipped: true))
        for (a, b) in zip(plain.contour + plain.iris, mirrored.contour + mirrored.iris) {
            XCTAssertEqual(a.x, 64 - b.x, accuracy: 1e-3)
            XCTAssertEqual(a.y, b.y, accuracy: 1e-3)
        }
    }
}
