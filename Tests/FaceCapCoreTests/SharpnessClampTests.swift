import XCTest

@testable import FaceCapCore

/// `LumaStatistics.sharpness` clamps its sample positions into the frame once, as byte offsets, rather than per
/// tap: the variance must be the one of sampling every tap through `LumaReader.luma(x, y)`, bit for bit, on every
/// pixel format and on regions the frame cuts (where the clamping decides which pixels are read).
final class SharpnessClampTests: XCTestCase {
    /// The measure as written before positions were clamped once: every tap through `luma(x, y)`.
    private func reference(_ reader: LumaReader, region: Rect) -> Double {
        let n = LumaStatistics.sharpnessCrop
        let scaleX = region.width / Float(n), scaleY = region.height / Float(n)
        let tapsX = min(3, max(1, Int(scaleX.rounded()))), tapsY = min(3, max(1, Int(scaleY.rounded())))
        let xs = (0..<n * tapsX).map {
            Int(
                region.x + (Float($0 / tapsX) + (Float($0 % tapsX) + 0.5) / Float(tapsX))
                    * scaleX)
        }
        let ys = (0..<n * tapsY).map {
            Int(
                region.y + (Float($0 / tapsY) + (Float($0 % tapsY) + 0.5) / Float(tapsY))
                    * scaleY)
        }
        let weight = 1 / Float(tapsX * tapsY)
        var crop = [Float](repeating: 0, count: n * n)
        for j in 0..<n {
            for i in 0..<n {
                var sum = 0
                for b in 0..<tapsY { for a in 0..<tapsX { sum += reader.luma(xs[i * tapsX + a], ys[j * tapsY + b]) } }
                crop[j * n + i] = Float(sum) * weight
            }
        }
        let cropMean = crop.reduce(0) { $0 + Double($1) } / Double(n * n)
        var sum: Double = 0, sumSquares: Double = 0
        for j in 1..<(n - 1) {
            var rowSum: Float = 0, rowSquares: Float = 0
            for i in 1..<(n - 1) {
                let c = j * n + i
                let lap = 4 * crop[c] - crop[c - 1] - crop[c + 1] - crop[c - n] - crop[c + n]
                rowSum += lap
                rowSquares += lap * lap
            }
            sum += Double(rowSum)
            sumSquares += Double(rowSquares)
        }
        let count = Double((n - 2) * (n - 2)), mean = sum / count
        let gain = 128 / max(cropMean, 16)
        return max(0, sumSquares / count - mean * mean) * gain * gain
    }

    func testSharpnessIsThePerTapClampedMeasureOnEveryFormatAndEdge() throws {
        let width = 97, height = 75
        // Regions inside the frame, past each edge, past two corners, and at 1, 2 and 3 taps a crop pixel.
        let regions = [
            Rect(x: 10, y: 8, width: 70, height: 60), Rect(x: -30, y: -20, width: 90, height: 80),
            Rect(x: 50, y: 40, width: 120, height: 100), Rect(x: -5, y: 30, width: 200, height: 150),
            Rect(x: 20, y: -40, width: 40, height: 64), Rect(x: 60, y: 60, width: 64, height: 30),
        ]
        for format in [PixelFormat.gray, .yuyv, .rgb24, .yuv420p, .yuv422p, .yuv444p] {
            for range in [ColorRange.limited, .full] {
                let count = try XCTUnwrap(format.byteCount(width: width, height: height))
                var state: UInt32 = 12345
                let data = (0..<count).map { i -> UInt8 in
                    state = state &* 1_664_525 &+ 1_013_904_223
                    return UInt8(truncatingIfNeeded: (i * 7) % 200 + Int(state >> 27))
                }
                let frame = Frame(format: format, width: width, height: height, colorRange: range, data: data)
                for region in regions {
                    let pair = try XCTUnwrap(
                        frame.withLuma { reader in
                            (LumaStatistics.sharpness(reader, region: region), reference(reader, region: region))
                        })
                    let measured = try XCTUnwrap(pair.0, "\(format) \(range) \(region)")
                    XCTAssertEqual(measured.bitPattern, pair.1.bitPattern, "\(format) \(range) \(region)")
                    XCTAssertGreaterThan(measured, 0, "\(format) \(range) \(region)")
                }
            }
        }
    }
}
