import FaceCapCore
import FaceCapIO
import Foundation

/// Tests/Fixtures, located from this file so the tests run from any working directory.
let terminalFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// sergey.png (600×600 RGB), decoded once.
let sergeyPhoto: Frame = try! ImageFile.read(path: terminalFixtures.appendingPathComponent("sergey.png").path)

/// A deterministic pseudo-random sequence (camera noise without a seed that changes between runs).
struct NoiseGenerator {
    var state: UInt64
    mutating func next(_ amplitude: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return amplitude == 0 ? 0 : Int(state >> 33) % (2 * amplitude + 1) - amplitude
    }
}

enum TestFrames {
    /// `photo` centred in a `width × height` frame in `format` (BT.601 limited range for YUV), scaled by
    /// `scale`, moved right by `dx` pixels, with ±`noise` on luma; the rest is a blue-grey wall.
    static func place(
        _ photo: Frame, width: Int = 640, height: Int = 480, format: PixelFormat = .yuyv,
        scale: Double = 0.8, dx: Int = 0, noise: Int = 0, seed: UInt64 = 1
    ) -> Frame {
        var generator = NoiseGenerator(state: seed)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let channels = photo.format == .rgb24 ? 3 : 1
        for y in 0..<height {
            for x in 0..<width {
                let sx = Int(Double(x - width / 2 - dx) / scale) + photo.width / 2
                let sy = Int(Double(y - height / 2) / scale) + photo.height / 2
                var c = (90, 110, 130)
                if sx >= 0, sx < photo.width, sy >= 0, sy < photo.height {
                    let i = (sy * photo.width + sx) * channels
                    c = (Int(photo.data[i]), Int(photo.data[i + channels / 3]), Int(photo.data[i + 2 * (channels / 3)]))
                }
                let n = generator.next(noise)
                let o = (y * width + x) * 3
                rgb[o] = UInt8(clamping: c.0 + n)
                rgb[o + 1] = UInt8(clamping: c.1 + n)
                rgb[o + 2] = UInt8(clamping: c.2 + n)
            }
        }
        return encode(rgb, width: width, height: height, format: format)
    }

    /// An RGB image as `format` (BT.601 limited range for YUV, chroma averaged over each block).
    static func encode(_ rgb: [UInt8], width: Int, height: Int, format: PixelFormat) -> Frame {
        func yuv(_ i: Int) -> (Int, Int, Int) {
            let r = Int(rgb[i * 3]), g = Int(rgb[i * 3 + 1]), b = Int(rgb[i * 3 + 2])
            return (
                ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16, ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128,
                ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128
            )
        }
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        var data: [UInt8]
        switch format {
        case .rgb24:
            return Frame(format: .rgb24, width: width, height: height, colorRange: .full, data: rgb)
        case .gray:
            data = (0..<(width * height)).map { i -> UInt8 in
                let r = 77 * Int(rgb[i * 3]), g = 150 * Int(rgb[i * 3 + 1]), b = 29 * Int(rgb[i * 3 + 2])
                return UInt8((r + g + b) >> 8)
            }
            return Frame(format: .gray, width: width, height: height, colorRange: .full, data: data)
        case .yuyv:
            data = [UInt8](repeating: 0, count: cw * 4 * height)
            for y in 0..<height {
                for x in stride(from: 0, to: width, by: 2) {
                    let a = yuv(y * width + x), b = yuv(y * width + min(x + 1, width - 1))
                    let o = y * cw * 4 + x * 2
                    data[o] = UInt8(a.0); data[o + 1] = UInt8((a.1 + b.1) / 2)
                    data[o + 2] = UInt8(b.0); data[o + 3] = UInt8((a.2 + b.2) / 2)
                }
            }
        case .yuv420p, .yuv422p, .yuv444p:
            let (sx, sy) = format == .yuv420p ? (1, 1) : format == .yuv422p ? (1, 0) : (0, 0)
            let pw = format == .yuv444p ? width : cw, ph = format == .yuv420p ? ch : height
            data = [UInt8](repeating: 0, count: width * height + 2 * pw * ph)
            for i in 0..<(width * height) { data[i] = UInt8(yuv(i).0) }
            for y in 0..<ph {
                for x in 0..<pw {
                    let c = yuv(min(height - 1, y << sy) * width + min(width - 1, x << sx))
                    data[width * height + y * pw + x] = UInt8(c.1)
                    data[width * height + pw * ph + y * pw + x] = UInt8(c.2)
                }
            }
        }
        return Frame(format: format, width: width, height: height, colorRange: .limited, data: data)
    }

    /// A uniform frame of one colour.
    static func solid(
        _ r: UInt8, _ g: UInt8, _ b: UInt8, width: Int = 64, height: Int = 48,
        format: PixelFormat = .rgb24
    ) -> Frame {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) { rgb[i * 3] = r; rgb[i * 3 + 1] = g; rgb[i * 3 + 2] = b }
        return encode(rgb, width: width, height: height, format: format)
    }
}
