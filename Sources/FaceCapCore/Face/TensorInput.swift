// Camera frame → model input tensor in one pass: every tensor pixel is mapped back into the frame
// (an affine map: letterbox scale for the detector, rotated square for the landmarks), sampled
// bilinearly straight from the frame's own pixel format, converted to RGB and scaled to the model's
// value range. No full-size RGB image is ever made.

internal import CKernels

#if canImport(Glibc)
import Glibc
#endif

/// Where tensor pixel (i, j) samples the frame: the pixel-centre convention of MediaPipe's GPU path
/// and of the reference pipeline (tensor pixel centre (i+0.5, j+0.5) ↦ frame point, then bilinear at
/// that point − 0.5 in index space).
public struct SamplingMap: Sendable, Equatable {
    /// Frame point (pixels) of the tensor's centre.
    public var centre: Point2
    /// Frame pixels covered by the tensor's width and height (before rotation).
    public var width: Float, height: Float
    /// Clockwise rotation (radians, y down) of the sampled rectangle.
    public var rotation: Float

    /// The rectangle `width × height` around `centre`, turned clockwise by `rotation` radians.
    public init(centre: Point2, width: Float, height: Float, rotation: Float = 0) {
        self.centre = centre; self.width = width; self.height = height; self.rotation = rotation
    }
}

/// What a sample outside the frame reads.
public enum SamplingBorder: Sendable {
    /// Black (the detector's letterbox bars).
    case zero
    /// The nearest edge pixel (MediaPipe's default for the landmark crop).
    case replicate
}

/// Native colour of one pixel, 0…255 per channel: RGB, or (Y, Cb, Cr) for YUV formats.
///
/// Taps are only called with 0 ≤ x < width and 0 ≤ y < height of a frame whose byte count `fillTensor`
/// has checked (it fits in an `Int`), so their index arithmetic cannot overflow and wraps (`&+`, `&*`)
/// instead of paying for overflow checks four times per tensor pixel.
@usableFromInline
protocol PixelTaps {
    func tap(_ x: Int, _ y: Int) -> SIMD4<Float>
}

@usableFromInline struct RGBTaps: PixelTaps {
    let p: UnsafePointer<UInt8>, width: Int
    @inline(__always) @usableFromInline func tap(_ x: Int, _ y: Int) -> SIMD4<Float> {
        let q = p + (y &* width &+ x) &* 3
        return SIMD4(Float(q[0]), Float(q[1]), Float(q[2]), 0)
    }
}

@usableFromInline struct GrayTaps: PixelTaps {
    let p: UnsafePointer<UInt8>, width: Int
    @inline(__always) @usableFromInline func tap(_ x: Int, _ y: Int) -> SIMD4<Float> {
        let v = Float(p[y &* width &+ x])
        return SIMD4(v, v, v, 0)
    }
}

@usableFromInline struct YUYVTaps: PixelTaps {
    let p: UnsafePointer<UInt8>, rowBytes: Int
    @inline(__always) @usableFromInline func tap(_ x: Int, _ y: Int) -> SIMD4<Float> {
        let pair = p + (y &* rowBytes &+ (x & ~1) &* 2)
        return SIMD4(Float(pair[(x & 1) * 2]), Float(pair[1]), Float(pair[3]), 0)
    }
}

@usableFromInline struct PlanarYUVTaps: PixelTaps {
    let y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>
    let width: Int, chromaWidth: Int, shiftX: Int, shiftY: Int
    @inline(__always) @usableFromInline func tap(_ x: Int, _ row: Int) -> SIMD4<Float> {
        let c = (row >> shiftY) &* chromaWidth &+ (x >> shiftX)
        return SIMD4(Float(y[row &* width &+ x]), Float(u[c]), Float(v[c]), 0)
    }
}

/// Converts a bilinearly interpolated native colour to RGB 0…255 (BT.601, the same coefficients as
/// `YUVToRGB`; interpolating before the conversion is exact because the conversion is affine).
@usableFromInline
struct ColourTransform {
    var yuv: Bool
    var yScale: Float, yOffset: Float, rv: Float, gu: Float, gv: Float, bu: Float

    init(format: PixelFormat, range: ColorRange) {
        yuv = format == .yuyv || format == .yuv420p || format == .yuv422p || format == .yuv444p
        switch range {
        case .limited: (yScale, yOffset, rv, gu, gv, bu) = (298 / 256, 16, 409 / 256, 100 / 256, 208 / 256, 516 / 256)
        case .full: (yScale, yOffset, rv, gu, gv, bu) = (1, 0, 359 / 256, 88 / 256, 183 / 256, 454 / 256)
        }
    }

    /// Black in the native space, what the zero border reads.
    var black: SIMD4<Float> { yuv ? SIMD4(yOffset, 128, 128, 0) : .zero }

    @inline(__always) func rgb(_ c: SIMD4<Float>) -> SIMD4<Float> {
        guard yuv else { return c }
        let luma = (c[0] - yOffset) * yScale, d = c[1] - 128, e = c[2] - 128
        let v = SIMD4<Float>(luma + rv * e, luma - gu * d - gv * e, luma + bu * d, 0)
        // Compare-and-blend clamps: the generic pointwiseMin/Max do not vectorise.
        let low = v.replacing(with: 0, where: v .< 0)
        return low.replacing(with: 255, where: low .> 255)
    }
}

/// Which implementation turns a YUV frame into a tensor; all give the same bits (FaceTensorInputTests).
enum ResampleKernel: Sendable {
    /// The generic Swift loop (`resample` with the format's `PixelTaps`).
    case swift
    /// CKernels' `fc_resample_*_avx2`: 8 tensor pixels per step.
    case avx2
    /// CKernels' `fc_resample_*_avx512`: 16 tensor pixels per step.
    case avx512

    /// What this CPU runs, with the convolutions' switches: AVX-512 unless FACECAP_NO_AVX512, then AVX2;
    /// FACECAP_SWIFT_KERNELS keeps the Swift loop.
    static let best: ResampleKernel = avx512GEMM ? .avx512 : (avx2CKernels ? .avx2 : .swift)
}

/// Fills `tensor` (outH × outW × 3, RGB, value·scale + offset) by sampling `frame` through `map`.
/// Returns false (and leaves the tensor alone) when the frame's data is smaller than its format needs.
@discardableResult
public func fillTensor(
    _ tensor: UnsafeMutableBufferPointer<Float>, width outW: Int, height outH: Int,
    from frame: Frame, map: SamplingMap, border: SamplingBorder,
    scale: Float, offset: Float
) -> Bool {
    fillTensor(
        tensor, width: outW, height: outH, from: frame, map: map, border: border, scale: scale,
        offset: offset, kernel: .best)
}

/// The same through `kernel` (only one this CPU has: the tests compare the paths). With a C kernel, YUYV and
/// planar YUV frames go through CKernels' resample (8 or 16 tensor pixels per step, taps gathered, the same
/// arithmetic in the same order: bit-identical); RGB and gray frames, and frames too small or too large for the
/// kernels' 32-bit gathers, always take the Swift loop.
@discardableResult
func fillTensor(
    _ tensor: UnsafeMutableBufferPointer<Float>, width outW: Int, height outH: Int,
    from frame: Frame, map: SamplingMap, border: SamplingBorder,
    scale: Float, offset: Float, kernel: ResampleKernel
) -> Bool {
    guard let needed = frame.format.byteCount(width: frame.width, height: frame.height),
        frame.data.count >= needed, tensor.count >= outW * outH * 3
    else { return false }
    let colour = ColourTransform(format: frame.format, range: frame.colorRange)
    let w = frame.width, h = frame.height
    let chromaW = (w + 1) / 2, chromaH = (h + 1) / 2
    frame.data.withUnsafeBufferPointer { buffer in
        let p = buffer.baseAddress!
        let dst = tensor.baseAddress!
        if kernel != .swift, outW > 0, outH > 0,
            cKernel(
                kernel, p: p, frame: frame, needed: needed, map: map, outW: outW, outH: outH, border: border,
                colour: colour, scale: scale, offset: offset, dst: dst)
        {
            return
        }
        func run<T: PixelTaps>(_ taps: T) {
            resample(
                taps, width: w, height: h, map: map, outW: outW, outH: outH, border: border,
                colour: colour, scale: scale, offset: offset, dst: dst)
        }
        switch frame.format {
        case .rgb24: run(RGBTaps(p: p, width: w))
        case .gray: run(GrayTaps(p: p, width: w))
        case .yuyv: run(YUYVTaps(p: p, rowBytes: chromaW * 4))
        case .yuv420p:
            run(
                PlanarYUVTaps(
                    y: p, u: p + w * h, v: p + w * h + chromaW * chromaH, width: w, chromaWidth: chromaW,
                    shiftX: 1, shiftY: 1))
        case .yuv422p:
            run(
                PlanarYUVTaps(
                    y: p, u: p + w * h, v: p + w * h + chromaW * h, width: w, chromaWidth: chromaW,
                    shiftX: 1, shiftY: 0))
        case .yuv444p:
            run(PlanarYUVTaps(y: p, u: p + w * h, v: p + 2 * w * h, width: w, chromaWidth: w, shiftX: 0, shiftY: 0))
        }
    }
    return true
}

/// Runs the C kernel for a YUYV or planar YUV frame whose `needed` bytes (checked present at `p`) the kernel's
/// bounds allow; false (nothing written) for the other formats and sizes, which the Swift loop then takes.
private func cKernel(
    _ kernel: ResampleKernel, p: UnsafePointer<UInt8>, frame: Frame, needed: Int, map: SamplingMap,
    outW: Int, outH: Int, border: SamplingBorder, colour: ColourTransform, scale: Float,
    offset: Float, dst: UnsafeMutablePointer<Float>
) -> Bool {
    let w = frame.width, h = frame.height
    // The kernels' gathers take 32-bit byte offsets: every byte they read lies below `needed` (resample.c).
    guard needed < Int(Int32.max) else { return false }
    // The planes' layout as PlanarYUVTaps reads it: chroma (x >> shiftX, y >> shiftY) of ceil-sized planes.
    let planar: (chromaW: Int, chromaH: Int, shiftX: Int32, shiftY: Int32)?
    switch frame.format {
    case .yuyv: planar = nil
    case .yuv420p: planar = ((w + 1) / 2, (h + 1) / 2, 1, 1)
    case .yuv422p: planar = ((w + 1) / 2, h, 1, 0)
    case .yuv444p: planar = (w, h, 0, 0)
    case .rgb24, .gray: return false
    }
    // A planar gather reads 4 bytes around each wanted one, from the side with 3 to spare: that needs chroma
    // planes of 3 bytes or more (resample.c, "Bounds"); smaller frames take the Swift loop.
    if let planar, planar.chromaW * planar.chromaH < 3 { return false }
    let g = SamplingGeometry(map: map, outW: outW, outH: outH)
    let replicate: Int32 = border == .replicate ? 1 : 0
    withUnsafeTemporaryAllocation(of: Float.self, capacity: 6) { c in  // on the stack: no allocation
        c[0] = colour.yOffset; c[1] = colour.yScale; c[2] = colour.rv
        c[3] = colour.gu; c[4] = colour.gv; c[5] = colour.bu
        let c = c.baseAddress!
        if let planar {
            let (cw, ch, sx, sy) = planar
            if kernel == .avx512 {
                fc_resample_planar_avx512(
                    p, w, h, cw, ch, sx, sy, g.origin.x, g.origin.y, g.di.x, g.di.y, g.dj.x,
                    g.dj.y, outW, outH, replicate, c, scale, offset, dst)
            } else {
                fc_resample_planar_avx2(
                    p, w, h, cw, ch, sx, sy, g.origin.x, g.origin.y, g.di.x, g.di.y, g.dj.x,
                    g.dj.y, outW, outH, replicate, c, scale, offset, dst)
            }
        } else {
            // YUYV rows of ceil(w / 2) 4-byte pairs: needed = h · rowBytes.
            let rowBytes = (w + 1) / 2 * 4
            if kernel == .avx512 {
                fc_resample_yuyv_avx512(
                    p, w, h, rowBytes, g.origin.x, g.origin.y, g.di.x, g.di.y, g.dj.x, g.dj.y,
                    outW, outH, replicate, c, scale, offset, dst)
            } else {
                fc_resample_yuyv_avx2(
                    p, w, h, rowBytes, g.origin.x, g.origin.y, g.di.x, g.di.y, g.dj.x, g.dj.y,
                    outW, outH, replicate, c, scale, offset, dst)
            }
        }
    }
    return true
}

/// Frame position (index space) of tensor pixel (i, j) = origin + i·di + j·dj (summed one di per pixel).
struct SamplingGeometry {
    var origin: SIMD2<Float>, di: SIMD2<Float>, dj: SIMD2<Float>

    @inline(__always) init(map: SamplingMap, outW: Int, outH: Int) {
        let c = cosf(map.rotation), s = sinf(map.rotation)
        let stepU = map.width / Float(outW), stepV = map.height / Float(outH)
        di = SIMD2<Float>(c * stepU, s * stepU)
        dj = SIMD2<Float>(-s * stepV, c * stepV)
        let u0: Float = (0.5 / Float(outW) - 0.5) * map.width
        let v0: Float = (0.5 / Float(outH) - 0.5) * map.height
        origin = SIMD2<Float>(map.centre.x + c * u0 - s * v0 - 0.5, map.centre.y + s * u0 + c * v0 - 0.5)
    }
}

@inline(__always)
private func resample<T: PixelTaps>(
    _ taps: T, width w: Int, height h: Int, map: SamplingMap, outW: Int, outH: Int,
    border: SamplingBorder, colour: ColourTransform, scale: Float, offset: Float,
    dst: UnsafeMutablePointer<Float>
) {
    let geometry = SamplingGeometry(map: map, outW: outW, outH: outH)
    let origin = geometry.origin, di = geometry.di, dj = geometry.dj
    let black = colour.black
    let maxX = w - 1, maxY = h - 1
    @inline(__always) func edgeTap(_ x: Int, _ y: Int) -> SIMD4<Float> {
        switch border {
        case .replicate: return taps.tap(min(max(x, 0), maxX), min(max(y, 0), maxY))
        case .zero: return x >= 0 && x <= maxX && y >= 0 && y <= maxY ? taps.tap(x, y) : black
        }
    }
    var out = dst
    for j in 0..<outH {
        var position = origin + Float(j) * dj
        for _ in 0..<outW {
            let fx = position.x.rounded(FloatingPointRoundingRule.down)
            let fy = position.y.rounded(FloatingPointRoundingRule.down)
            let ax = position.x - fx, ay = position.y - fy
            var value: SIMD4<Float>
            if fx >= -1e8, fx <= 1e8, fy >= -1e8, fy <= 1e8 {
                let x0 = Int(fx), y0 = Int(fy)
                let t00, t10, t01, t11: SIMD4<Float>
                // |x0|, |y0| ≤ 1e8 (checked above), so the neighbours' `&+ 1` cannot wrap.
                if x0 >= 0, y0 >= 0, x0 < maxX, y0 < maxY {
                    t00 = taps.tap(x0, y0); t10 = taps.tap(x0 &+ 1, y0)
                    t01 = taps.tap(x0, y0 &+ 1); t11 = taps.tap(x0 &+ 1, y0 &+ 1)
                } else {
                    t00 = edgeTap(x0, y0); t10 = edgeTap(x0 &+ 1, y0)
                    t01 = edgeTap(x0, y0 &+ 1); t11 = edgeTap(x0 &+ 1, y0 &+ 1)
                }
                let top = t00 + (t10 - t00) * ax, bottom = t01 + (t11 - t01) * ax
                value = colour.rgb(top + (bottom - top) * ay)
            } else {
                value = colour.rgb(border == .zero ? black : taps.tap(0, 0))
            }
            value = value * scale + offset
            out[0] = value[0]; out[1] = value[1]; out[2] = value[2]
            out += 3
            position += di
        }
    }
}
