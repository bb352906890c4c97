import XCTest

@testable import FaceCapCore

/// RESIZE_BILINEAR (the palm detector's upsampling) on small graphs with hand-computed values, the three ways
/// TFLite places the pixels; the whole model against LiteRT is in PalmGoldenTests.
final class ResizeOpTests: XCTestCase {
    /// A 1×2×2×2 input: channel 0 holds 2·y + x (0, 1 / 2, 3), channel 1 ten times minus that.
    private let input: [Float] = [0, 0, 1, -10, 2, -20, 3, -30]

    private func resize(
        to size: [Int32], output: [Int]? = nil, alignCorners: Bool = false,
        halfPixel: Bool = false, sizeIsConstant: Bool = true
    ) throws -> [Float] {
        var g = GraphBuilder()
        let x = g.activation([1, 2, 2, 2])
        let s = sizeIsConstant ? g.constantInt32([2], size) : g.activation([2])
        let y = g.activation(output ?? [1, Int(size[0]), Int(size[1]), 2])
        g.op(
            Op.resizeBilinear, [x, s], [y], optionsType: 15,
            options: [(2, .u8(alignCorners ? 1 : 0)), (3, .u8(halfPixel ? 1 : 0))])
        g.inputs = [x]
        g.outputs = [y]
        return try g.run(input)
    }

    /// Channel 0 and minus a tenth of channel 1 of `values` (both must be the same picture).
    private func picture(_ values: [Float]) -> [Float] {
        let even = stride(from: 0, to: values.count, by: 2).map { values[$0] }
        let odd = stride(from: 1, to: values.count, by: 2).map { -values[$0] / 10 }
        for (a, b) in zip(even, odd) { XCTAssertEqual(a, b, accuracy: 1e-5) }
        return even
    }

    func testHalfPixelCentres() throws {
        // Sources (y + 0.5)/2 − 0.5 = −0.25, 0.25, 0.75, 1.25: the outer ones weigh the edge pixel alone.
        let out = picture(try resize(to: [4, 4], halfPixel: true))
        let expected: [Float] = [0, 0.25, 0.75, 1, 0.5, 0.75, 1.25, 1.5, 1.5, 1.75, 2.25, 2.5, 2, 2.25, 2.75, 3]
        for (a, b) in zip(out, expected) { XCTAssertEqual(a, b, accuracy: 1e-6) }
        XCTAssertEqual(out.count, 16)
    }

    func testAlignedCorners() throws {
        // Sources y · (2 − 1)/(3 − 1): 0, 0.5, 1.
        XCTAssertEqual(picture(try resize(to: [3, 3], alignCorners: true)), [0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3])
    }

    func testPlainScale() throws {
        // Sources y · 2/4: 0, 0.5, 1, 1.5 (the last clamped to the last row); 2 × 3 to check the axes apart.
        let wide = picture(try resize(to: [2, 3]))
        XCTAssertEqual(wide.count, 6)
        for (a, b) in zip(wide, [0, 2.0 / 3, 1, 2, 2 + 2.0 / 3, 3]) { XCTAssertEqual(Double(a), b, accuracy: 1e-6) }
        XCTAssertEqual(picture(try resize(to: [4, 4])), [0, 0.5, 1, 1, 1, 1.5, 2, 2, 2, 2.5, 3, 3, 2, 2.5, 3, 3])
    }

    func testAMalformedResizeIsAnErrorNotACrash() {
        let cases: [(String, () throws -> [Float])] = [
            ("size against output", { try self.resize(to: [4, 4], output: [1, 3, 4, 2]) }),
            ("channels", { try self.resize(to: [4, 4], output: [1, 4, 4, 3]) }),
            ("both flags", { try self.resize(to: [4, 4], alignCorners: true, halfPixel: true) }),
            ("size not constant", { try self.resize(to: [4, 4], sizeIsConstant: false) }),
        ]
        for (what, make) in cases {
            XCTAssertThrowsError(try make(), what) {
                XCTAssertTrue("\($0)".contains("RESIZE_BILINEAR"), "\(what): \($0)")
            }
        }
    }
}
