/// Reads luma (0...255, full range) straight out of a frame of any pixel format, so the light and
/// sharpness measures never build a full-size grey or RGB image.
///
/// Valid only inside `Frame.withLuma`; coordinates are clamped to the frame, so a face box that
/// sticks out of the picture reads the nearest edge pixel instead of out of bounds. `withLuma` has
/// checked that the frame's byte count fits in an `Int`, so the offset of a clamped pixel cannot
/// overflow and is computed with wrapping operators (no overflow checks in the per-sample path).
struct LumaReader {
    let base: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    /// Bytes from one row to the next, and from one pixel's luma to the next one's.
    let rowStride: Int
    let pixelStride: Int
    let isRGB: Bool
    let stretch: YUVToRGB

    @inline(__always)
    func luma(_ x: Int, _ y: Int) -> Int { luma(at: rowOffset(y) &+ columnOffset(x)) }

    /// Byte offset of column `x`, clamped into the frame, from the start of a row.
    @inline(__always)
    func columnOffset(_ x: Int) -> Int { min(max(x, 0), width - 1) &* pixelStride }

    /// Byte offset of row `y`, clamped into the frame.
    @inline(__always)
    func rowOffset(_ y: Int) -> Int { min(max(y, 0), height - 1) &* rowStride }

    /// The luma at `offset`, a `rowOffset` plus a `columnOffset` (so inside the frame): what `luma(x, y)` reads,
    /// for loops that clamp their positions once instead of per sample.
    @inline(__always)
    func luma(at offset: Int) -> Int {
        let p = base + offset
        if isRGB {
            // BT.601 weights in 8.8 fixed point, as the JPEG/JFIF luma (at most 256·255 + 128).
            return (77 &* Int(p[0]) &+ 150 &* Int(p[1]) &+ 29 &* Int(p[2]) &+ 128) >> 8
        }
        return Int(stretch.luma(p[0]))
    }
}

extension Frame {
    /// Calls `body` with a luma reader over this frame, or returns nil when the frame's data is shorter
    /// than its format and size say (a truncated frame is measured as nothing rather than overread).
    func withLuma<R>(_ body: (LumaReader) -> R) -> R? {
        guard let needed = format.byteCount(width: width, height: height), data.count >= needed else { return nil }
        let rowStride: Int, pixelStride: Int
        switch format {
        case .yuyv: (rowStride, pixelStride) = ((width + 1) / 2 * 4, 2)
        case .rgb24: (rowStride, pixelStride) = (width * 3, 3)
        case .yuv420p, .yuv422p, .yuv444p, .gray: (rowStride, pixelStride) = (width, 1)
        }
        return data.withUnsafeBufferPointer { buffer in
            body(
                LumaReader(
                    base: buffer.baseAddress!, width: width, height: height, rowStride: rowStride,
                    pixelStride: pixelStride, isRGB: format == .rgb24, stretch: YUVToRGB(range: colorRange)))
        }
    }
}

/// Light on the face: what `tooDark`, `tooBright` and `unevenLight` decide on.
public struct LightMetrics: Sendable, Equatable {
    /// Mean luma of the face region.
    public var meanLuma: Double
    /// Fraction of face pixels at or below `darkPixelLuma` (under-exposed).
    public var darkFraction: Double
    /// Fraction of face pixels at or above `brightPixelLuma` (over-exposed).
    public var brightFraction: Double
    /// Mean luma of the image-left and image-right halves of the face (split at the nose).
    public var leftLuma: Double
    public var rightLuma: Double
    /// Darker half over brighter half, 1 = even.
    public var balance: Double {
        let brighter = max(leftLuma, rightLuma)
        return brighter < 1 ? 1 : min(leftLuma, rightLuma) / brighter
    }
}

enum LumaStatistics {
    /// At most this many samples per axis: 64² samples pin a mean and a fraction to well under 1 %,
    /// at a cost that does not grow with the camera's resolution.
    static let maxSamplesPerAxis = 64

    /// Mean luma of the whole frame on a coarse grid (every frame, also when no face was found).
    static func frameMean(_ reader: LumaReader) -> Double {
        let stepX = max(1, reader.width / maxSamplesPerAxis), stepY = max(1, reader.height / maxSamplesPerAxis)
        // At most ~128² samples of ≤ 255, and x + stepX ≤ 2 × width: the loop's sums cannot overflow.
        var sum = 0, count = 0
        var y = stepY / 2
        while y < reader.height {
            var x = stepX / 2
            while x < reader.width { sum &+= reader.luma(x, y); count &+= 1; x &+= stepX }
            y += stepY
        }
        return count == 0 ? 0 : Double(sum) / Double(count)
    }

    /// Light statistics over `region` (frame pixels, clipped to the frame), split into halves at `midX`.
    static func light(
        _ reader: LumaReader, region: Rect, midX: Float, darkLevel: Int,
        brightLevel: Int
    ) -> LightMetrics? {
        // A box from a model can hold NaN, infinities or numbers far beyond Int's range; converting those
        // to Int traps, so clip in Float first.
        guard let region = region.clipped(toWidth: reader.width, height: reader.height) else { return nil }
        let x0 = Int(region.x.rounded(.down)), y0 = Int(region.y.rounded(.down))
        let x1 = Int((region.x + region.width).rounded(.up)), y1 = Int((region.y + region.height).rounded(.up))
        guard x1 > x0, y1 > y0 else { return nil }
        let stepX = max(1, (x1 - x0) / maxSamplesPerAxis), stepY = max(1, (y1 - y0) / maxSamplesPerAxis)
        // The split clamped into the region: a NaN or far-off nose (a model's garbage) must not reach Int().
        let split = midX.isFinite ? Int(min(max(midX, Float(x0)), Float(x1)).rounded()) : (x0 + x1) / 2
        var leftSum = 0, leftCount = 0, rightSum = 0, rightCount = 0, dark = 0, bright = 0
        var y = y0 + stepY / 2
        while y < y1 {
            var x = x0 + stepX / 2
            while x < x1 {
                let l = reader.luma(x, y)
                if x < split { leftSum += l; leftCount += 1 } else { rightSum += l; rightCount += 1 }
                if l <= darkLevel { dark += 1 }
                if l >= brightLevel { bright += 1 }
                x += stepX
            }
            y += stepY
        }
        let count = leftCount + rightCount
        guard count > 0 else { return nil }
        let mean = Double(leftSum + rightSum) / Double(count)
        return LightMetrics(
            meanLuma: mean, darkFraction: Double(dark) / Double(count),
            brightFraction: Double(bright) / Double(count),
            leftLuma: leftCount > 0 ? Double(leftSum) / Double(leftCount) : mean,
            rightLuma: rightCount > 0 ? Double(rightSum) / Double(rightCount) : mean)
    }

    /// Side of the square crop sharpness is measured on. Resampling every face to one size makes the
    /// number comparable between a face far away and one close up. 64 px: at 96 px sensor noise on a
    /// small face (no averaging left) read as detail; at 48 px a 2-pixel blur no longer showed
    /// (docs/calibration.md).
    static let sharpnessCrop = 64

    /// Variance of the 4-neighbour Laplacian over a `sharpnessCrop`² resampling of `region`, scaled by
    /// (128 / crop mean)² so that a dim face is not mistaken for a blurred one (the Laplacian scales with
    /// exposure; a face too dark to judge is `tooDark` first anyway).
    ///
    /// Each crop pixel is the mean of up to 3×3 source samples spread over the area it covers, so a
    /// large face is low-pass filtered like a camera's own downscaler would, not aliased into false
    /// detail.
    static func sharpness(_ reader: LumaReader, region: Rect) -> Double? {
        let n = sharpnessCrop
        // Non-finite or absurdly large boxes (a model's garbage) would overflow the Int sample positions;
        // a face is never much larger than the frame it is in.
        let limit = 4 * Float(max(reader.width, reader.height))
        guard region.x.isFinite, region.y.isFinite, region.width.isFinite, region.height.isFinite,
            abs(region.x) <= limit, abs(region.y) <= limit, region.width <= limit, region.height <= limit,
            region.width >= 8, region.height >= 8
        else { return nil }
        let scaleX = region.width / Float(n), scaleY = region.height / Float(n)
        let tapsX = min(3, max(1, Int(scaleX.rounded()))), tapsY = min(3, max(1, Int(scaleY.rounded())))
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: n * (tapsX + tapsY)) { positions in
            // The sample columns and rows, computed once rather than converted from Float per sample, and clamped
            // into the frame once, as byte offsets (`luma(x, y)` clamps every one of up to 64² × 9 taps).
            let xs = positions.baseAddress!, ys = xs + n * tapsX
            for i in 0..<n {
                for a in 0..<tapsX {
                    xs[i * tapsX + a] = reader.columnOffset(
                        Int(region.x + (Float(i) + (Float(a) + 0.5) / Float(tapsX)) * scaleX))
                }
            }
            for j in 0..<n {
                for b in 0..<tapsY {
                    ys[j * tapsY + b] = reader.rowOffset(
                        Int(region.y + (Float(j) + (Float(b) + 0.5) / Float(tapsY)) * scaleY))
                }
            }
            return laplacianVariance(reader, xs: xs, tapsX: tapsX, ys: ys, tapsY: tapsY)
        }
    }

    /// The variance of `sharpness`, on the crop sampled at column offsets `xs` and row offsets `ys` (`taps` per
    /// pixel; `LumaReader.columnOffset` and `rowOffset`).
    private static func laplacianVariance(
        _ reader: LumaReader, xs: UnsafePointer<Int>, tapsX: Int,
        ys: UnsafePointer<Int>, tapsY: Int
    ) -> Double {
        let n = sharpnessCrop
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: n * n) { crop -> Double in
            let weight = 1 / Float(tapsX * tapsY)
            for j in 0..<n {
                for i in 0..<n {
                    var sum = 0
                    for b in 0..<tapsY {
                        let sy = ys[j &* tapsY &+ b]
                        for a in 0..<tapsX { sum &+= reader.luma(at: sy &+ xs[i &* tapsX &+ a]) }  // ≤ 9 × 255
                    }
                    crop[j &* n &+ i] = Float(sum) * weight
                }
            }
            var total: Double = 0
            for k in 0..<(n * n) { total += Double(crop[k]) }
            let cropMean = total / Double(n * n)
            var sum: Double = 0, sumSquares: Double = 0
            // Indices stay inside the n² crop (n = 64), so they wrap rather than check for overflow.
            for j in 1..<(n - 1) {
                var rowSum: Float = 0, rowSquares: Float = 0
                for i in 1..<(n - 1) {
                    let c = j &* n &+ i
                    let lap = 4 * crop[c] - crop[c &- 1] - crop[c &+ 1] - crop[c &- n] - crop[c &+ n]
                    rowSum += lap
                    rowSquares += lap * lap
                }
                sum += Double(rowSum)
                sumSquares += Double(rowSquares)
            }
            let count = Double((n - 2) * (n - 2))
            let mean = sum / count
            let gain = 128 / max(cropMean, 16)
            return max(0, sumSquares / count - mean * mean) * gain * gain
        }
    }
}

extension Rect {
    /// The part of this rectangle inside a `width × height` frame, or nil when it has a NaN, an infinity
    /// or no area there.
    func clipped(toWidth width: Int, height: Int) -> Rect? {
        guard x.isFinite, y.isFinite, self.width.isFinite, self.height.isFinite else { return nil }
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(Float(width), x + self.width), y1 = min(Float(height), y + self.height)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
