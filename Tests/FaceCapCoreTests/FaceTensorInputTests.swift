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

    /// The YUYV kernel (AVX-512 CPUs) against the Swift loop: bit for bit, on random frames, at the models' sizes
    /// (16-pixel steps) and odd ones (single pixels), turned, mirrored, partly or wholly outside the frame, with
    /// both borders and both colour ranges. (Without AVX-512 both calls take the Swift loop.)
    func testYUYVKernelIsBitIdenticalToTheSwiftLoop() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        func uniform(_ low: Float, _ high: Float) -> Float { low + (high - low) * Float(next() % 10_000) / 10_000 }
        let sizes = [(64, 64), (128, 128), (192, 192), (37, 21), (16, 3), (1, 1)]
        let frames = [(640, 480), (33, 17), (2, 2), (1, 1)]
        var compared = 0
        for (index, (fw, fh)) in frames.enumerated() {
            let bytes = (fw + 1) / 2 * 4 * fh
            let data = (0..<bytes).map { _ in UInt8(truncatingIfNeeded: next()) }
            for range in [ColorRange.limited, .full] {
                let frame = Frame(format: .yuyv, width: fw, height: fh, colorRange: range, data: data)
                for (tw, th) in sizes {
                    for trial in 0..<4 {
                        let side = uniform(0.3, 1.6) * Float(max(fw, fh))
                        let map = SamplingMap(
                            centre: Point2(x: uniform(-0.3, 1.3) * Float(fw), y: uniform(-0.3, 1.3) * Float(fh)),
                            width: trial == 1 ? -side : side, height: side * uniform(0.7, 1.3),
                            rotation: trial == 0 ? 0 : uniform(-3.2, 3.2))
                        for border in [SamplingBorder.zero, .replicate] {
                            let scale: Float = border == .zero ? 2 / 255 : 1 / 255
                            let offset: Float = border == .zero ? -1 : 0
                            var fast = [Float](repeating: .nan, count: tw * th * 3), slow = fast
                            let okFast = fast.withUnsafeMutableBufferPointer {
                                fillTensor($0, width: tw, height: th, from: frame, map: map, border: border,
                                           scale: scale, offset: offset, kernel: true)
                            }
                            let okSlow = slow.withUnsafeMutableBufferPointer {
                                fillTensor($0, width: tw, height: th, from: frame, map: map, border: border,
                                           scale: scale, offset: offset, kernel: false)
                            }
                            XCTAssertTrue(okFast && okSlow)
                            let same = zip(fast, slow).allSatisfy { $0.bitPattern == $1.bitPattern }
                            XCTAssertTrue(same, "frame \(index) \(range) \(tw)x\(th) trial \(trial) \(border)")
                            compared += 1
                        }
                    }
                }
            }
        }
        XCTAssertEqual(compared, 4 * 2 * 6 * 4 * 2)
    }
}
