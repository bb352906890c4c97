import CKernels
import XCTest

@testable import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Frame → tensor sampling: geometry, borders and every pixel format.
final class FaceTensorInputTests: XCTestCase {
    private func tensor(
        _ frame: Frame, size: Int, map: SamplingMap, border: SamplingBorder = .zero,
        scale: Float = 1, offset: Float = 0
    ) -> [Float] {
        var out = [Float](repeating: .nan, count: size * size * 3)
        let ok = out.withUnsafeMutableBufferPointer {
            fillTensor(
                $0, width: size, height: size, from: frame, map: map, border: border, scale: scale,
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
        XCTAssertEqual(t[0], -1)  // row 0 lies in the top bar
        XCTAssertEqual(t[(4 * 8 + 4) * 3], 1, accuracy: 1e-5)  // the middle is the image
        XCTAssertEqual(t[(7 * 8 + 4) * 3], -1)  // bottom bar
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
                fillTensor(
                    $0, width: 4, height: 2,
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
            fillTensor(
                $0, width: 4, height: 4, from: frame,
                map: SamplingMap(centre: Point2(x: 4, y: 4), width: 8, height: 8),
                border: .zero, scale: 1, offset: 0)
        }
        XCTAssertFalse(ok)
        XCTAssertEqual(out[0], 7)
    }

    /// The C kernels this CPU runs: AVX2 always (release builds target AVX2 + FMA), AVX-512 where the CPU has it.
    private var cKernels: [ResampleKernel] { fc_has_avx512() != 0 ? [.avx2, .avx512] : [.avx2] }

    /// Random frame bytes (a fixed LCG, so failures repeat).
    private struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func uniform(_ low: Float, _ high: Float) -> Float {
            low + (high - low) * Float(next() % 10_000) / 10_000
        }
        mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
    }

    /// `kernel` against the Swift loop on one frame and map: bit for bit, and nothing written past the tensor.
    private func assertSameBits(
        _ frame: Frame, _ tw: Int, _ th: Int, _ map: SamplingMap, _ border: SamplingBorder,
        _ kernel: ResampleKernel, _ label: @autoclosure () -> String
    ) {
        let scale: Float = border == .zero ? 2 / 255 : 1 / 255
        let offset: Float = border == .zero ? -1 : 0
        let count = tw * th * 3, sentinel: Float = 12345
        var fast = [Float](repeating: .nan, count: count) + [Float](repeating: sentinel, count: 48)
        var slow = [Float](repeating: .nan, count: count)
        let okFast = fast.withUnsafeMutableBufferPointer {
            fillTensor(
                $0, width: tw, height: th, from: frame, map: map, border: border, scale: scale,
                offset: offset, kernel: kernel)
        }
        let okSlow = slow.withUnsafeMutableBufferPointer {
            fillTensor(
                $0, width: tw, height: th, from: frame, map: map, border: border, scale: scale,
                offset: offset, kernel: .swift)
        }
        XCTAssertTrue(okFast && okSlow, label())
        XCTAssertEqual(fast[..<count].map(\.bitPattern), slow.map(\.bitPattern), label())
        XCTAssertTrue(fast[count...].allSatisfy { $0 == sentinel }, "wrote past the tensor: " + label())
    }

    /// The frame bytes `format` needs at width × height, random.
    private func randomFrame(
        _ format: PixelFormat, _ fw: Int, _ fh: Int, _ range: ColorRange,
        _ random: inout Random
    ) -> Frame {
        Frame(
            format: format, width: fw, height: fh, colorRange: range,
            data: random.bytes(format.byteCount(width: fw, height: fh)!))
    }

    /// The C kernels (AVX-512 and AVX2, YUYV and planar 4:2:0, 4:2:2, 4:4:4) against the Swift loop: bit for bit,
    /// on random frames (even, odd and tiny sizes), at the models' tensor sizes (whole vector steps) and odd ones
    /// (widths not a multiple of 8 or 16, single pixels), turned, mirrored, partly or wholly outside the frame on
    /// either side, beyond the ±1e8 cut-off, with both borders and both colour ranges.
    func testCKernelsAreBitIdenticalToTheSwiftLoop() {
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        let sizes = [(64, 64), (128, 128), (192, 192), (37, 21), (23, 5), (16, 3), (8, 2), (7, 9), (1, 1)]
        let frames = [(640, 480), (33, 17), (6, 1), (5, 3), (2, 2), (1, 1)]
        var compared = 0
        for format in [PixelFormat.yuyv, .yuv420p, .yuv422p, .yuv444p] {
            for (fw, fh) in frames {
                for range in [ColorRange.limited, .full] {
                    let frame = randomFrame(format, fw, fh, range, &random)
                    for kernel in cKernels {
                        for (tw, th) in sizes {
                            for trial in 0..<5 {
                                let side = random.uniform(0.3, 1.6) * Float(max(fw, fh))
                                var map = SamplingMap(
                                    centre: Point2(
                                        x: random.uniform(-0.3, 1.3) * Float(fw),
                                        y: random.uniform(-0.3, 1.3) * Float(fh)),
                                    width: trial == 1 ? -side : side, height: side * random.uniform(0.7, 1.3),
                                    rotation: trial == 0 || trial == 1 ? 0 : random.uniform(-3.2, 3.2))
                                if trial == 4 {  // far outside: positions beyond ±1e8 read the border colour
                                    map.centre = Point2(x: 3e8, y: -2e8)
                                }
                                for border in [SamplingBorder.zero, .replicate] {
                                    let label = "\(format) \(fw)x\(fh) \(range) \(kernel) \(tw)x\(th)"
                                    assertSameBits(
                                        frame, tw, th, map, border, kernel,
                                        label + " trial \(trial) \(border)")
                                    compared += 1
                                }
                            }
                        }
                        // The whole frame at its own size: taps on the last row and column and at the corners.
                        let whole = SamplingMap(
                            centre: Point2(x: Float(fw) / 2, y: Float(fh) / 2), width: Float(fw),
                            height: Float(fh))
                        for border in [SamplingBorder.zero, .replicate] {
                            assertSameBits(
                                frame, fw, fh, whole, border, kernel,
                                "\(format) \(fw)x\(fh) whole \(kernel) \(border)")
                        }
                    }
                }
            }
        }
        XCTAssertEqual(compared, 4 * 6 * 2 * cKernels.count * 9 * 5 * 2)
    }

    /// A step whose pixels straddle the frame's corners: for each corner, 16 tensor pixels 0.37 px apart along a
    /// diagonal through it, so each step mixes taps inside, on the edge and outside in both directions.
    func testCKernelsAgreeAtTheFrameCorners() {
        var random = Random(state: 42)
        for format in [PixelFormat.yuyv, .yuv420p, .yuv422p, .yuv444p] {
            for (fw, fh) in [(7, 5), (8, 6), (3, 1)] {
                let frame = randomFrame(format, fw, fh, .limited, &random)
                for kernel in cKernels {
                    for (cx, cy) in [(0, 0), (fw, 0), (0, fh), (fw, fh)] {
                        for rotation in [Float.pi / 4, -Float.pi / 4, 3 * Float.pi / 4] {
                            let map = SamplingMap(
                                centre: Point2(x: Float(cx), y: Float(cy)), width: 16 * 0.37,
                                height: 0.37, rotation: rotation)
                            for border in [SamplingBorder.zero, .replicate] {
                                let label = "\(format) \(fw)x\(fh) corner \(cx),\(cy) \(rotation)"
                                assertSameBits(frame, 16, 1, map, border, kernel, label + " \(kernel) \(border)")
                            }
                        }
                    }
                }
            }
        }
    }

    /// The kernels read only their frame: the planar kernels on the smallest frames they take (chroma planes of
    /// 3 bytes) and a larger one, placed so that the frame's first byte follows and its last byte precedes an
    /// unreadable page (a read before or past the frame crashes the test), sampled everywhere and beyond.
    func testPlanarKernelsReadOnlyTheirFrame() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var random = Random(state: 7)
        let cases: [(PixelFormat, Int, Int)] = [
            (.yuv420p, 5, 1), (.yuv420p, 6, 2), (.yuv422p, 5, 1), (.yuv422p, 3, 3),
            (.yuv444p, 3, 1), (.yuv444p, 1, 3), (.yuv420p, 33, 17),
        ]
        for (format, fw, fh) in cases {
            let frame = randomFrame(format, fw, fh, .limited, &random)
            let n = frame.data.count
            let span = (n + page - 1) / page * page
            for atEnd in [true, false] {
                // guard page, the frame's pages, guard page; the frame flush with the second guard or the first.
                let total = span + 2 * page
                let mapped = mmap(nil, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                let raw = try XCTUnwrap(mapped == UnsafeMutableRawPointer(bitPattern: -1) ? nil : mapped)
                defer { munmap(raw, total) }
                XCTAssertEqual(mprotect(raw, page, PROT_NONE), 0)
                XCTAssertEqual(mprotect(raw + page + span, page, PROT_NONE), 0)
                let base = (raw + page + (atEnd ? span - n : 0)).assumingMemoryBound(to: UInt8.self)
                frame.data.withUnsafeBufferPointer { base.update(from: $0.baseAddress!, count: n) }
                let shifts: (Int32, Int32) = format == .yuv420p ? (1, 1) : format == .yuv422p ? (1, 0) : (0, 0)
                let cw = shifts.0 == 1 ? (fw + 1) / 2 : fw, ch = shifts.1 == 1 ? (fh + 1) / 2 : fh
                let colour: [Float] = [16, 298 / 256, 409 / 256, 100 / 256, 208 / 256, 516 / 256]
                for kernel in cKernels {
                    for border in [SamplingBorder.zero, .replicate] {
                        let map = SamplingMap(
                            centre: Point2(x: Float(fw) / 2, y: Float(fh) / 2),
                            width: Float(fw) * 1.5, height: Float(fh) * 1.5)
                        let g = SamplingGeometry(map: map, outW: 32, outH: 32)
                        var out = [Float](repeating: .nan, count: 32 * 32 * 3), expected = out
                        let replicate: Int32 = border == .replicate ? 1 : 0
                        out.withUnsafeMutableBufferPointer { o in
                            colour.withUnsafeBufferPointer { c in
                                let run = kernel == .avx512 ? fc_resample_planar_avx512 : fc_resample_planar_avx2
                                run(
                                    base, fw, fh, cw, ch, shifts.0, shifts.1, g.origin.x, g.origin.y, g.di.x, g.di.y,
                                    g.dj.x, g.dj.y, 32, 32, replicate, c.baseAddress!, 1, 0, o.baseAddress!)
                            }
                        }
                        expected.withUnsafeMutableBufferPointer {
                            _ = fillTensor(
                                $0, width: 32, height: 32, from: frame, map: map, border: border, scale: 1,
                                offset: 0, kernel: .swift)
                        }
                        XCTAssertEqual(
                            out.map(\.bitPattern), expected.map(\.bitPattern),
                            "\(format) \(fw)x\(fh) \(kernel) \(border) at end \(atEnd)")
                    }
                }
            }
        }
    }

    /// The default path follows the convolutions' switches (FACECAP_NO_AVX512, FACECAP_SWIFT_KERNELS).
    func testDefaultKernelFollowsTheCPUAndTheSwitches() {
        let expected: ResampleKernel = fc_has_avx512() != 0 ? .avx512 : fc_has_avx2() != 0 ? .avx2 : .swift
        XCTAssertEqual(ResampleKernel.best, expected)
        XCTAssertEqual(ResampleKernel.best == .avx512, Interpreter.usesAVX512)
    }
}
