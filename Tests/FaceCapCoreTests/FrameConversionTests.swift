import Foundation
import XCTest

@testable import FaceCapCore

/// Format conversions into reused buffers, checked against known BT.601 values and against ffmpeg.
final class FrameConversionTests: XCTestCase {
    func rgb(of frame: Frame) -> [UInt8] {
        var out = Frame.empty()
        frame.convertToRGB24(into: &out)
        XCTAssertEqual(out.format, .rgb24)
        XCTAssertEqual(out.colorRange, .full)
        return out.data
    }

    func gray(of frame: Frame) -> [UInt8] {
        var out = Frame.empty()
        frame.convertToGray(into: &out)
        XCTAssertEqual(out.format, .gray)
        return out.data
    }

    func testLimitedRangeLumaStretchesToFull() {
        // Y = 16 → black, 235 → white, 126 → mid-grey, chroma neutral.
        let yuv444 = Frame(
            format: .yuv444p, width: 3, height: 1, colorRange: .limited,
            data: [16, 235, 126, 128, 128, 128, 128, 128, 128])
        XCTAssertEqual(rgb(of: yuv444), [0, 0, 0, 255, 255, 255, 128, 128, 128])
        XCTAssertEqual(gray(of: yuv444), [0, 255, 128])
        // Codes outside 16…235 clamp.
        let outside = Frame(format: .gray, width: 2, height: 1, colorRange: .limited, data: [0, 255])
        XCTAssertEqual(gray(of: outside), [0, 255])
        XCTAssertEqual(rgb(of: outside), [0, 0, 0, 255, 255, 255])
        // Full range is left alone.
        let full = Frame(format: .gray, width: 2, height: 1, colorRange: .full, data: [16, 235])
        XCTAssertEqual(gray(of: full), [16, 235])
    }

    func testPureColoursRoundTripThroughYUV() {
        let colours: [[UInt8]] = [
            [255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0], [0, 255, 255], [255, 0, 255],
        ]
        for range in [ColorRange.limited, .full] {
            let toYUV = RGBToYUV(range: range)
            let codes = colours.map { toYUV.yuv(r: $0[0], g: $0[1], b: $0[2]) }
            let planes = codes.map(\.y) + codes.map(\.u) + codes.map(\.v)
            let frame = Frame(format: .yuv444p, width: 6, height: 1, colorRange: range, data: planes)
            let back = rgb(of: frame)
            for (i, colour) in colours.enumerated() {
                for c in 0..<3 {
                    XCTAssertLessThanOrEqual(abs(Int(back[3 * i + c]) - Int(colour[c])), 2, "\(range) \(colour)")
                }
            }
        }
        // Textbook limited-range codes of pure red: Y 81, Cb 90, Cr 240.
        let red = RGBToYUV(range: .limited).yuv(r: 255, g: 0, b: 0)
        XCTAssertEqual([red.y, red.u, red.v], [81, 90, 240])
        XCTAssertEqual(RGBToYUV(range: .full).yuv(r: 255, g: 255, b: 255).y, 255)
    }

    func testEveryFormatAgreesForTheSamePicture() {
        // A 4×2 picture in each layout, built from the same Y/U/V samples (chroma constant per 2×2 block).
        let ys: [UInt8] = [16, 60, 100, 235, 50, 90, 130, 200]
        let u: [UInt8] = [110, 150]
        let v: [UInt8] = [150, 115]
        let u444 = (0..<8).map { u[($0 % 4) / 2] }
        let v444 = (0..<8).map { v[($0 % 4) / 2] }
        let p444 = Frame(format: .yuv444p, width: 4, height: 2, data: ys + u444 + v444)
        let p422 = Frame(format: .yuv422p, width: 4, height: 2, data: ys + u + u + v + v)
        let p420 = Frame(format: .yuv420p, width: 4, height: 2, data: ys + u + v)
        var yuyv: [UInt8] = []
        for row in 0..<2 {
            for pair in 0..<2 { yuyv += [ys[row * 4 + 2 * pair], u[pair], ys[row * 4 + 2 * pair + 1], v[pair]] }
        }
        let packed = Frame(format: .yuyv, width: 4, height: 2, data: yuyv)
        let reference = rgb(of: p444)
        XCTAssertEqual(rgb(of: p422), reference)
        XCTAssertEqual(rgb(of: p420), reference)
        XCTAssertEqual(rgb(of: packed), reference)
        let luma = gray(of: p444)
        XCTAssertEqual(gray(of: p420), luma)
        XCTAssertEqual(gray(of: packed), luma)
        // Where no channel was clipped, the luma of the RGB is the stretched Y within rounding.
        let rgbLuma = gray(of: Frame(format: .rgb24, width: 4, height: 2, colorRange: .full, data: reference))
        var compared = 0
        for i in 0..<8 where !reference[(3 * i)..<(3 * i + 3)].contains(where: { $0 == 0 || $0 == 255 }) {
            XCTAssertLessThanOrEqual(abs(Int(rgbLuma[i]) - Int(luma[i])), 2, "pixel \(i)")
            compared += 1
        }
        XCTAssertGreaterThanOrEqual(compared, 3)
    }

    func testByteCountIsNilWhenTheSizeOverflows() {
        // The product of the sides fits, but the bytes for it do not: every format must say so rather than
        // trap or wrap.
        let side = 1 << 31
        for format in [PixelFormat.yuyv, .rgb24, .yuv422p, .yuv444p] {
            XCTAssertNil(format.byteCount(width: side, height: side), "\(format)")
        }
        XCTAssertEqual(PixelFormat.gray.byteCount(width: side, height: side), 1 << 62)
        XCTAssertEqual(PixelFormat.yuv420p.byteCount(width: side, height: side), 3 << 61)
        XCTAssertNil(PixelFormat.yuyv.byteCount(width: 3, height: Int.max / 3))
        XCTAssertNil(PixelFormat.yuv420p.byteCount(width: 1, height: Int.max))
        XCTAssertEqual(PixelFormat.gray.byteCount(width: 1, height: Int.max), Int.max)
        XCTAssertEqual(PixelFormat.yuv420p.byteCount(width: 3, height: 3), 9 + 2 * 2 * 2)
        XCTAssertEqual(PixelFormat.yuyv.byteCount(width: 3, height: 2), 2 * 4 * 2)
    }

    func testPrepareRefusesAnUnrepresentableSize() {
        var frame = Frame(format: .gray, width: 2, height: 2, data: [1, 2, 3, 4])
        // The review's case: 2³¹ × 2³¹ RGB does not fit in an Int; the frame must not claim that size.
        XCTAssertFalse(frame.prepare(format: .rgb24, width: 1 << 31, height: 1 << 31, colorRange: .full))
        XCTAssertEqual([frame.width, frame.height, frame.data.count], [0, 0, 0])
        XCTAssertFalse(frame.prepare(format: .gray, width: -1, height: 5, colorRange: .full))
        XCTAssertEqual([frame.width, frame.height, frame.data.count], [0, 0, 0])
        XCTAssertTrue(frame.prepare(format: .gray, width: 0, height: 0, colorRange: .full))
        XCTAssertTrue(frame.prepare(format: .yuv420p, width: 3, height: 3, colorRange: .limited))
        XCTAssertEqual([frame.width, frame.height, frame.data.count], [3, 3, 17])
        XCTAssertTrue(frame.isWellFormed)
    }

    func testOddSizesUseRoundedUpChroma() {
        // 3×3 4:2:0: chroma planes are 2×2.
        let frame = Frame(
            format: .yuv420p, width: 3, height: 3, colorRange: .full,
            data: [UInt8](repeating: 128, count: 9) + [128, 128, 128, 255] + [128, 128, 128, 255])
        let out = rgb(of: frame)
        XCTAssertEqual(out.count, 27)
        // The bottom-right pixel takes the last chroma sample (strong Cb and Cr), the top-left stays grey.
        XCTAssertEqual(Array(out[0..<3]), [128, 128, 128])
        XCTAssertNotEqual(Array(out[24..<27]), [128, 128, 128])
    }

    func testMatchesFFmpegOnA444Clip() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/clips")
        let clip = try Y4MReader.decodeAll(Array(try Data(contentsOf: dir.appendingPathComponent("ffmpeg-444.y4m"))))
        let ppm = Array(try Data(contentsOf: dir.appendingPathComponent("ffmpeg-444-frame0.ppm")))
        let expected = Array(ppm.suffix(16 * 12 * 3))
        let ours = rgb(of: clip.frames[0])
        let worst = zip(ours, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThanOrEqual(worst, 1, "largest difference from ffmpeg's BT.601 conversion")
    }

    func testOutputBufferIsReused() {
        let frame = Frame(
            format: .yuv420p, width: 64, height: 48, data: [UInt8](repeating: 100, count: 64 * 48 * 3 / 2))
        var out = Frame.empty()
        frame.convertToRGB24(into: &out)
        let first = out.data.withUnsafeBufferPointer { $0.baseAddress }
        frame.convertToRGB24(into: &out)
        XCTAssertEqual(out.data.withUnsafeBufferPointer { $0.baseAddress }, first)
        // A smaller picture fits in the same storage.
        Frame(format: .gray, width: 32, height: 24, data: [UInt8](repeating: 1, count: 32 * 24)).convertToRGB24(
            into: &out)
        XCTAssertEqual(out.data.count, 32 * 24 * 3)
        XCTAssertEqual(out.data.withUnsafeBufferPointer { $0.baseAddress }, first)
    }
}
