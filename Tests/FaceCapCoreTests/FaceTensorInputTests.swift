@testable import FaceCapCore
import XCTest

/// Frame → tensor sampling: geometry, borders and every pixel format.
final class FaceTensorInputTests: XCTestCase {
    private func tensor(_ frame: Frame, size: Int, map: SamplingMap, border: SamplingBorder = .zero,
                        scale: Float = 1, offset: Float = 0) -> [Float] {
        var out = [Float](repeating: .nan, count: size * size * 3)
        let ok = out.withUnsafeMutableBufferPointer {
            fillTensor($0, width: size, height: size, from: frame, map: map, border: border, scale: scale,
                       offset: offset)
        }
        XCTAssertTrue(ok)
        return out
    }

    /// An RGB test pattern.
    private func rgbFrame(width: Int, height: Int) -> Frame {
        var data = [UInt8]()
        for y in 0..<height {
            for x in 0..<width { data += [UInt8((x * 7) % 256), UInt8((y * 5) % 256), UInt8((x + y) % 256)] }
        }
        return Frame(format: .rgb24, width: width, height: height, data: data)
    }

    func testSameSizeSamplingIsTheIdentity() {
        let frame = rgbFrame(width: 8, height: 8)
        let t = tensor(frame, size: 8, map: SamplingMap(centre: Point2(x: 4, y: 4), width: 8, height: 8))
        XCTAssertEqual(t, frame.data.map(Float.init))
    }

    func testRotationByHalfATurnFlipsTheImage() {
        let frame = rgbFrame(width: 8, height: 8)
        let t = tensor(frame, size: 8, map: SamplingMap(centre: Point2(x: 4, y: 4), width: 8, height: 8, rotation: .pi))
        // Tensor pixel (0, 0) reads frame pixel (7, 7).
        XCTAssertEqual(t[0], Float(frame.data[(7 * 8 + 7) * 3]), accuracy: 1e-3)
        XCTAssertEqual(t[1], Float(frame.data[(7 * 8 + 7) * 3 + 1]), accuracy: 1e-3)
    }

    func testLetterboxBarsAreMinusOneAndReplicateBorderCopiesTheEdge() {
        let frame = Frame(format: .gray, width: 8, height: 4, data: [UInt8](repeating: 255, count: 32))
        let map = FaceDetector.letterbox(width: 8, height: 4).map
        let t = tensor(frame, size: 8, map: map, scale: 2 / 255, offset: -1)
        XCTAssertEqual(t[0], -1)                                   // row 0 lies in the top bar
        XCTAssertEqual(t[(4 * 8 + 4) * 3], 1, accuracy: 1e-5)      // the middle is the image
        XCTAssertEqual(t[(7 * 8 + 4) * 3], -1)                     // bottom bar
        let replicated = tensor(frame, size: 8, map: map, border: .replicate, scale: 2 / 255, offset: -1)
        XCTAssertEqual(replicated[0], 1, accuracy: 1e-5)
    }

    func testYUVFormatsAgreeWithEachOtherAndWithBT601() {
        // 4×2 frame: luma ramp, chroma constant per 2×2 block so every subsampling holds the same colour.
        let width = 4, height = 2
        let luma: [UInt8] = [16, 80, 160, 235, 40, 100, 180, 200]
        let u: [UInt8] = [90, 200], v: [UInt8] = [240, 60]
        var yuyv = [UInt8](), planar420 = luma + u + v, planar422 = luma, planar444 = luma
        for y in 0..<height {
            for pair in 0..<2 { yuyv += [luma[y * 4 + 2 * pair], u[pair], luma[y * 4 + 2 * pair + 1], v[pair]] }
        }
        planar422 += u + u + v + v
        planar444 += (0..<8).map { u[($0 % 4) / 2] } + (0..<8).map { v[($0 % 4) / 2] }
        let map = SamplingMap(centre: Point2(x: 2, y: 1), width: 4, height: 2)
        func run(_ format: PixelFormat, _ data: [UInt8]) -> [Float] {
            var out = [Float](repeating: 0, count: 4 * 2 * 3)
            _ = out.withUnsafeMutableBufferPointer {
                fillTensor($0, width: 4, height: 2,
                           from: Frame(format: format, width: width, height: height, data: data),
                           map: map, border: .zero, scale: 1, offset: 0)
            }
            return out
        }
        let reference = run(.yuyv, yuyv)
        XCTAssertEqual(run(.yuv420p, planar420), reference)
        XCTAssertEqual(run(.yuv422p, planar422), reference)
        XCTAssertEqual(run(.yuv444p, planar444), reference)
        let convert = YUVToRGB(range: .limited)
        for index in 0..<8 {
            let rgb = convert.rgb(y: luma[index], u: u[(index % 4) / 2], v: v[(index % 4) / 2])
            XCTAssertEqual(reference[index * 3], Float(rgb.r), accuracy: 1.01)
            XCTAssertEqual(reference[index * 3 + 1], Float(rgb.g), accuracy: 1.01)
            XCTAssertEqual(reference[index * 3 + 2], Float(rgb.b), accuracy: 1.01)
        }
    }

    func testShortFrameDataIsRefused() {
        let frame = Frame(format: .yuyv, width: 8, height: 8, data: [UInt8](repeating: 0, count: 10))
        var out = [Float](repeating: 7, count: 4 * 4 * 3)
        let ok = out.withUnsafeMutableBufferPointer {
            fillTensor($0, width: 4, height: 4, from: frame,
                       map: SamplingMap(centre: Point2(x: 4, y: 4), width: 8, height: 8),
                       border: .zero, scale: 1, offset: 0)
        }
        XCTAssertFalse(ok)
        XCTAssertEqual(out[0], 7)
    }
}
