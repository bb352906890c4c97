// What PreviewRaster samples a frame through: one tap's native colour, per pixel format.

import FaceCapCore

protocol PixelSource {
    func tap(_ x: Int, _ y: Int) -> SIMD3<Int32>
    /// The sum of `tap(xs[k], y)` for the `count` columns `xs` (inside the frame): a preview pixel's taps on one
    /// frame row. The YUV sources sum each channel as a scalar from the row's start (the preview's largest cost
    /// was building a vector per tap, with overflow checks on its positions).
    func rowSum(_ y: Int, _ xs: UnsafePointer<Int32>, _ count: Int) -> SIMD3<Int32>
}

extension PixelSource {
    @inline(__always) func rowSum(_ y: Int, _ xs: UnsafePointer<Int32>, _ count: Int) -> SIMD3<Int32> {
        var sum = SIMD3<Int32>.zero
        for k in 0..<count { sum &+= tap(Int(xs[k]), y) }
        return sum
    }
}

struct RGBSource: PixelSource {
    let p: UnsafePointer<UInt8>, width: Int
    @inline(__always) func tap(_ x: Int, _ y: Int) -> SIMD3<Int32> {
        let q = p + (y * width + x) * 3
        return SIMD3(Int32(q[0]), Int32(q[1]), Int32(q[2]))
    }
}

struct GraySource: PixelSource {
    let p: UnsafePointer<UInt8>, width: Int
    @inline(__always) func tap(_ x: Int, _ y: Int) -> SIMD3<Int32> { SIMD3(Int32(p[y * width + x]), 128, 128) }
}

struct YUYVSource: PixelSource {
    let p: UnsafePointer<UInt8>, rowBytes: Int
    @inline(__always) func tap(_ x: Int, _ y: Int) -> SIMD3<Int32> {
        let pair = p + y * rowBytes + (x & ~1) * 2
        return SIMD3(Int32(pair[(x & 1) * 2]), Int32(pair[1]), Int32(pair[3]))
    }
    @inline(__always) func rowSum(_ y: Int, _ xs: UnsafePointer<Int32>, _ count: Int) -> SIMD3<Int32> {
        let line = p + y &* rowBytes
        var luma: Int32 = 0, cb: Int32 = 0, cr: Int32 = 0
        for k in 0..<count {
            let x = Int(xs[k])
            let pair = line + (x & ~1) &* 2
            luma &+= Int32(pair[(x & 1) &* 2])
            cb &+= Int32(pair[1])
            cr &+= Int32(pair[3])
        }
        return SIMD3(luma, cb, cr)
    }
}

struct PlanarSource: PixelSource {
    let y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>
    let width: Int, chromaWidth: Int, shiftX: Int, shiftY: Int
    @inline(__always) func tap(_ x: Int, _ row: Int) -> SIMD3<Int32> {
        let c = (row >> shiftY) * chromaWidth + (x >> shiftX)
        return SIMD3(Int32(y[row * width + x]), Int32(u[c]), Int32(v[c]))
    }
    @inline(__always) func rowSum(_ row: Int, _ xs: UnsafePointer<Int32>, _ count: Int) -> SIMD3<Int32> {
        let line = y + row &* width
        let chroma = (row >> shiftY) &* chromaWidth
        var luma: Int32 = 0, cb: Int32 = 0, cr: Int32 = 0
        for k in 0..<count {
            let x = Int(xs[k])
            let c = chroma &+ (x >> shiftX)
            luma &+= Int32(line[x])
            cb &+= Int32(u[c])
            cr &+= Int32(v[c])
        }
        return SIMD3(luma, cb, cr)
    }
}

/// Samples a frame into the preview's pixel grid: each preview pixel the area average of its taps (up to 4×4,
/// `RasterStorage.xTaps`/`yTaps`, worked out once per size), as RGB.
struct GridSampler<Source: PixelSource> {
    let source: Source
    /// YUV to RGB, for every source but RGB's.
    let convert: YUVToRGB?
    let xTaps: UnsafePointer<Int32>, yTaps: UnsafePointer<Int32>
    let tapsX: Int, tapsY: Int
    private let taps: Float
    private let tapCount: SIMD3<Int32>, halfTapCount: SIMD3<Int32>

    init(
        _ source: Source, convert: YUVToRGB?, xTaps: UnsafePointer<Int32>, yTaps: UnsafePointer<Int32>,
        tapsX: Int, tapsY: Int
    ) {
        self.source = source
        self.convert = convert
        self.xTaps = xTaps
        self.yTaps = yTaps
        self.tapsX = tapsX
        self.tapsY = tapsY
        taps = Float(tapsX * tapsY)
        tapCount = SIMD3<Int32>(repeating: Int32(tapsX * tapsY))
        halfTapCount = tapCount / 2
    }

    /// The colour (RGB, 0...255) of the preview pixel at `column`, row `py`.
    @inline(__always)
    func rgb(column: Int, py: Int) -> SIMD3<Float> {
        var sum = SIMD3<Int32>.zero
        let columnTaps = xTaps + column &* tapsX
        for ty in 0..<tapsY {
            sum &+= source.rowSum(Int(yTaps[py &* tapsY &+ ty]), columnTaps, tapsX)
        }
        guard let convert else { return SIMD3<Float>(sum) / taps }
        // The average rounded half away from zero, in integers: the sums are whole and ≥ 0, so
        // (sum + ⌊taps/2⌋) / taps is what rounding sum / taps in Float gives (no lane's `roundf` call).
        let q = (sum &+ halfTapCount) / tapCount
        let c = convert.rgb(
            y: UInt8(truncatingIfNeeded: q.x), u: UInt8(truncatingIfNeeded: q.y),
            v: UInt8(truncatingIfNeeded: q.z))
        return SIMD3(Float(c.r), Float(c.g), Float(c.b))
    }
}
