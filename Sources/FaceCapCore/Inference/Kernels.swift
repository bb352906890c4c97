// The numeric kernels of the inference engine: NHWC float32, batch 1.
//
// Layout conventions shared with `Interpreter`, which packs the weights once at load:
// - Channels are processed in blocks of 8 (one `SIMD8<Float>`, one AVX register). When a channel count
//   C ≥ 8 is not a multiple of 8, the last block starts at C − 8 and overlaps the one before it: the
//   overlapping lanes are computed twice with the same result, so no masked loads or stores are needed.
//   Only C < 8 (the FaceMesh presence head, 1 channel) takes a partial-store path.
// - GEMM weights are packed in panels of two blocks (16 output channels) or one (8): for every k the
//   panel holds 16 (or 8) contiguous floats, so the micro-kernel streams them with unit stride.
// The release build targets Haswell (AVX2 + FMA), so `addProduct` is one vfmadd per 8 lanes.
//
// Index arithmetic: every offset below addresses a tensor or packed-weight buffer the interpreter
// allocated at load, whose float count (and so every in-range offset) fits in an `Int`. Offsets inside
// the loops therefore use wrapping operators (`&+`, `&*`): the same machine instructions the compiler
// emits once it has proven there is no overflow, without the checks it cannot prove away.

import CKernels

typealias V8 = SIMD8<Float>

/// Whether convolutions run on the AVX-512 kernels in CKernels (same arithmetic — one fused multiply-add per k in
/// k order, per tap in ky, kx order — twice the lanes, masked tails) instead of the AVX2 ones here.
let avx512GEMM = fc_has_avx512() != 0

/// Whether, where AVX-512 is not used, convolutions and tensor input run on CKernels' AVX2 C kernels (the
/// `_avx2` functions: the same arithmetic in the same order as the Swift kernels here) instead of the Swift ones.
/// FACECAP_SWIFT_KERNELS keeps the Swift kernels everywhere.
let avx2CKernels = !avx512GEMM && fc_has_avx2() != 0

@inline(__always)
func load8(_ p: UnsafePointer<Float>) -> V8 {
    UnsafeRawPointer(p).loadUnaligned(as: V8.self)
}

/// Lane-wise maximum written as a compare and blend, which compiles to vmaxps/vblendvps
/// (the generic `pointwiseMax` does not vectorise here).
@inline(__always)
func max8(_ a: V8, _ b: V8) -> V8 { a.replacing(with: b, where: a .< b) }

@inline(__always)
func min8(_ a: V8, _ b: V8) -> V8 { a.replacing(with: b, where: b .< a) }

@inline(__always)
func store8(_ v: V8, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: V8.self)
}

/// What happens to a value after bias (and residual) are added.
enum KernelActivation {
    case none
    case relu
    case relu6
    case reluN1To1
    /// Per-channel PReLU; the slopes are packed like the bias (8 per block).
    case prelu(UnsafePointer<Float>)
}

@inline(__always)
func activate(_ v: V8, _ activation: KernelActivation, _ block: Int) -> V8 {
    switch activation {
    case .none: return v
    case .relu: return v.replacing(with: 0, where: v .< 0)
    case .relu6: return min8(max8(v, V8(repeating: 0)), V8(repeating: 6))
    case .reluN1To1: return min8(max8(v, V8(repeating: -1)), V8(repeating: 1))
    case .prelu(let alpha):
        let a = load8(alpha + block &* 8)
        return v.replacing(with: v * a, where: v .< 0)
    }
}

/// The CKernels code (FC_ACT_*) of an activation, and the plain per-channel slopes for PReLU.
func cActivation(_ activation: TFLiteActivation, prelu: UnsafePointer<Float>?) -> (Int32, UnsafePointer<Float>?) {
    if let prelu { return (4, prelu) }
    switch activation {
    case .none: return (0, nil)
    case .relu: return (1, nil)
    case .relu6: return (2, nil)
    case .reluN1To1: return (3, nil)
    }
}

extension KernelActivation {
    /// The kernel form of a model's fused activation (the one mapping; PReLU has no TFLite code).
    init(_ activation: TFLiteActivation) {
        switch activation {
        case .none: self = .none
        case .relu: self = .relu
        case .relu6: self = .relu6
        case .reluN1To1: self = .reluN1To1
        }
    }
}

/// An output block of 8 channels: where it starts, and how many lanes are real (8 except when C < 8).
struct ChannelBlock {
    var start: Int
    var lanes: Int
    /// Residual lanes that exist for this block (a residual narrower than the output is zero-padded).
    var residualLanes: Int
}

/// Blocks of 8 covering `channels`, the last one overlapping its neighbour (see the file comment).
func channelBlocks(_ channels: Int, residualChannels: Int = 0) -> [ChannelBlock] {
    if channels < 8 {
        return [ChannelBlock(start: 0, lanes: channels, residualLanes: min(residualChannels, channels))]
    }
    let count = (channels + 7) / 8
    return (0..<count).map { index in
        let start = min(index * 8, channels - 8)
        return ChannelBlock(start: start, lanes: 8, residualLanes: max(0, min(8, residualChannels - start)))
    }
}

/// The residual added before the activation: `pointer[p * stride + c]` for channels c < `channels`.
struct Residual {
    var pointer: UnsafePointer<Float>
    var stride: Int
    var channels: Int
}

@inline(__always)
func loadPartial(_ p: UnsafePointer<Float>, _ lanes: Int) -> V8 {
    var v = V8(repeating: 0)
    for i in 0..<lanes { v[i] = p[i] }
    return v
}

@inline(__always)
func storePartial(_ v: V8, _ p: UnsafeMutablePointer<Float>, _ lanes: Int) {
    for i in 0..<lanes { p[i] = v[i] }
}

/// Stores one 8-channel result of pixel row `row` (only the real lanes when the output is narrower).
/// Residual and activation are applied afterwards by `gemmEpilogue`: done here, per vector, they made
/// the compiler outline the epilogue into a call that spilled every accumulator.
@inline(__always)
func put(_ v: V8, row: Int, block: ChannelBlock, c: UnsafeMutablePointer<Float>, ldc: Int) {
    let out = c + (row &* ldc &+ block.start)
    if block.lanes == 8 { store8(v, out) } else { storePartial(v, out, block.lanes) }
}

/// Adds the residual and applies the activation in place to rows `rows` of C (n channels each), in
/// plain channel order (the overlapping blocks of the kernels would apply them twice). For PReLU,
/// `activation` holds one slope per channel.
func gemmEpilogue(c: UnsafeMutablePointer<Float>, ldc: Int, n: Int, rows: Range<Int>, residual: Residual?,
                  activation: KernelActivation) {
    if residual == nil, case .none = activation { return }
    let vectorEnd = n & ~7
    for row in rows {
        let out = c + row &* ldc
        let res = residual.map { UnsafePointer($0.pointer + row &* $0.stride) }
        let resChannels = residual?.channels ?? 0
        var ch = 0
        while ch < vectorEnd {
            var v = load8(out + ch)
            if let res, ch < resChannels {
                v += ch + 8 <= resChannels ? load8(res + ch) : loadPartial(res + ch, resChannels - ch)
            }
            store8(applyActivation(v, activation, ch), out + ch)
            ch &+= 8
        }
        while ch < n {
            var v = out[ch]
            if let res, ch < resChannels { v += res[ch] }
            switch activation {
            case .none: break
            case .relu: v = max(v, 0)
            case .relu6: v = min(max(v, 0), 6)
            case .reluN1To1: v = min(max(v, -1), 1)
            case .prelu(let alpha): v = v >= 0 ? v : v * alpha[ch]
            }
            out[ch] = v
            ch &+= 1
        }
    }
}

/// `activate` with the PReLU slopes indexed by channel instead of by packed block.
@inline(__always)
func applyActivation(_ v: V8, _ activation: KernelActivation, _ channel: Int) -> V8 {
    if case .prelu(let alpha) = activation {
        let a = load8(alpha + channel)
        return v.replacing(with: v * a, where: v .< 0)
    }
    return activate(v, activation, 0)
}

/// A panel of CKernels' packing: output channels start..<start+valid, `width` floats per k (zero past valid).
struct WidePanel {
    var start: Int
    var width: Int
    var valid: Int
    var offset: Int
}

/// Packed GEMM weights, each panel `k × width` floats, plus bias. Either `panels` of 8-channel blocks (the Swift
/// kernels here) or `wide` panels of plain channels (CKernels: AVX-512, or AVX2 where AVX-512 is not used).
struct PackedGemm {
    /// Panel p: (first block index, number of blocks 1 to 3, float offset into `weights`).
    var panels: [(block: Int, blocks: Int, offset: Int)]
    var wide: [WidePanel]
    var blocks: [ChannelBlock]
    var weights: UnsafePointer<Float>
    /// 8 floats per block for `panels`; one per channel (padded by 32 zeros) for `wide`.
    var bias: UnsafePointer<Float>
    var k: Int
    var n: Int
}

/// C[m × n] = A[m × k] · W + bias (+ residual), then activation. `a` rows are `lda` apart; `segments`
/// describes a row when it is not contiguous (direct convolution).
func gemm(a: UnsafePointer<Float>, lda: Int, m: Int, segments: Segments? = nil, packed: PackedGemm,
          c: UnsafeMutablePointer<Float>, ldc: Int, residual: Residual?, activation: KernelActivation) {
    // Rows in chunks that keep A's chunk in L1 while every weight panel streams past it.
    let chunk = max(12, min(96, (16 * 1024) / max(1, packed.k * 4)) / 12 * 12)
    let k = segments ?? Segments(count: 1, length: packed.k, stride: 0)
    if !packed.wide.isEmpty {
        // AVX-512 or AVX2 (CKernels): every panel in C, the residual added and the activation applied as C is
        // stored.
        var act: Int32 = 0
        var alpha: UnsafePointer<Float>?
        switch activation {
        case .none: act = 0
        case .relu: act = 1
        case .relu6: act = 2
        case .reluN1To1: act = 3
        case .prelu(let slopes): act = 4; alpha = slopes
        }
        var m0 = 0
        while m0 < m {
            let m1 = min(m, m0 + chunk)
            for panel in packed.wide {
                // The residual pointer is only read for panels whose channels the residual has (res_lanes > 0).
                let res = residual.map { $0.pointer + (m0 &* $0.stride &+ min(panel.start, $0.channels)) }
                let resLanes = max(0, (residual?.channels ?? 0) - panel.start)
                if avx512GEMM {
                    fc_gemm_panel_avx512(a + m0 &* lda, lda, m1 &- m0, k.count, k.length, k.stride,
                                         packed.weights + panel.offset, panel.width, panel.valid,
                                         packed.bias + panel.start, c + (m0 &* ldc &+ panel.start), ldc, res,
                                         residual?.stride ?? 0, resLanes, act, alpha.map { $0 + panel.start })
                } else {
                    fc_gemm_panel_avx2(a + m0 &* lda, lda, m1 &- m0, k.count, k.length, k.stride,
                                       packed.weights + panel.offset, panel.width, panel.valid,
                                       packed.bias + panel.start, c + (m0 &* ldc &+ panel.start), ldc, res,
                                       residual?.stride ?? 0, resLanes, act, alpha.map { $0 + panel.start })
                }
            }
            m0 = m1
        }
        return
    }
    var m0 = 0
    while m0 < m {
        let m1 = min(m, m0 + chunk)
        for panel in packed.panels {
            let w = packed.weights + panel.offset
            let bias = packed.bias + panel.block * 8
            let bi = panel.block
            let b0 = packed.blocks[bi]
            var row = m0
            switch panel.blocks {
            case 3:
                let b1 = packed.blocks[bi + 1], b2 = packed.blocks[bi + 2]
                while row + 4 <= m1 {
                    kernel4x24(a: a + row &* lda, lda: lda, k: k, w: w, bias: bias, row: row, b0: b0, b1: b1, b2: b2,
                               c: c, ldc: ldc)
                    row &+= 4
                }
                while row < m1 {
                    kernel1x24(a: a + row &* lda, k: k, w: w, bias: bias, row: row, b0: b0, b1: b1, b2: b2,
                               c: c, ldc: ldc)
                    row &+= 1
                }
            case 2:
                let b1 = packed.blocks[bi + 1]
                while row + 6 <= m1 {
                    kernel6x16(a: a + row &* lda, lda: lda, k: k, w: w, bias: bias, row: row, b0: b0, b1: b1,
                               c: c, ldc: ldc)
                    row &+= 6
                }
                while row < m1 {
                    kernel1x16(a: a + row &* lda, k: k, w: w, bias: bias, row: row, b0: b0, b1: b1, c: c, ldc: ldc)
                    row &+= 1
                }
            default:
                while row + 4 <= m1 {
                    kernel4x8(a: a + row &* lda, lda: lda, k: k, w: w, bias: bias, row: row, b0: b0, c: c, ldc: ldc)
                    row &+= 4
                }
                while row < m1 {
                    kernel1x8(a: a + row &* lda, k: k, w: w, bias: bias, row: row, b0: b0, c: c, ldc: ldc)
                    row &+= 1
                }
            }
        }
        gemmEpilogue(c: c, ldc: ldc, n: packed.n, rows: m0..<m1, residual: residual, activation: activation)
        m0 = m1
    }
}

/// How one row of A is laid out: `count` runs of `length` floats, `stride` apart. A plain matrix row
/// is one run; a convolution reads its k×k patches straight from the NHWC input as `kh` runs of
/// `kw·channels` floats one input row apart, with no im2col copy.
struct Segments {
    var count: Int
    var length: Int
    var stride: Int
}

/// How many 8-channel blocks each weight panel takes: 3 (24 channels, 4 rows × 3 = 12 accumulators) or
/// 2 (16 channels, 6 rows × 2 = 12 accumulators) keep the two FMA pipes busy within 16 AVX registers.
func panelWidths(blocks: Int) -> [Int] {
    var widths: [Int] = []
    var left = blocks
    while left > 0 {
        let width = left == 4 || left == 2 ? 2 : left == 1 ? 1 : 3
        widths.append(width)
        left -= width
    }
    return widths
}

@inline(__always)
func kernel6x16(a: UnsafePointer<Float>, lda: Int, k seg: Segments, w: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                row: Int, b0: ChannelBlock, b1: ChannelBlock, c: UnsafeMutablePointer<Float>, ldc: Int) {
    let bias0 = load8(bias), bias1 = load8(bias + 8)
    var c00 = bias0, c01 = bias1, c10 = bias0, c11 = bias1, c20 = bias0, c21 = bias1
    var c30 = bias0, c31 = bias1, c40 = bias0, c41 = bias1, c50 = bias0, c51 = bias1
    let a0 = a, a1 = a + lda, a2 = a + 2 &* lda, a3 = a + 3 &* lda, a4 = a + 4 &* lda, a5 = a + 5 &* lda
    var wp = w
    for segment in 0..<seg.count {
        let first = segment &* seg.stride
        for kk in first..<(first &+ seg.length) {
            let w0 = load8(wp), w1 = load8(wp + 8)
            wp += 16
            var x = V8(repeating: a0[kk])
            c00.addProduct(x, w0); c01.addProduct(x, w1)
            x = V8(repeating: a1[kk])
            c10.addProduct(x, w0); c11.addProduct(x, w1)
            x = V8(repeating: a2[kk])
            c20.addProduct(x, w0); c21.addProduct(x, w1)
            x = V8(repeating: a3[kk])
            c30.addProduct(x, w0); c31.addProduct(x, w1)
            x = V8(repeating: a4[kk])
            c40.addProduct(x, w0); c41.addProduct(x, w1)
            x = V8(repeating: a5[kk])
            c50.addProduct(x, w0); c51.addProduct(x, w1)
        }
    }
    put(c00, row: row, block: b0, c: c, ldc: ldc)
    put(c01, row: row, block: b1, c: c, ldc: ldc)
    put(c10, row: row + 1, block: b0, c: c, ldc: ldc)
    put(c11, row: row + 1, block: b1, c: c, ldc: ldc)
    put(c20, row: row + 2, block: b0, c: c, ldc: ldc)
    put(c21, row: row + 2, block: b1, c: c, ldc: ldc)
    put(c30, row: row + 3, block: b0, c: c, ldc: ldc)
    put(c31, row: row + 3, block: b1, c: c, ldc: ldc)
    put(c40, row: row + 4, block: b0, c: c, ldc: ldc)
    put(c41, row: row + 4, block: b1, c: c, ldc: ldc)
    put(c50, row: row + 5, block: b0, c: c, ldc: ldc)
    put(c51, row: row + 5, block: b1, c: c, ldc: ldc)
}

@inline(__always)
func kernel4x24(a: UnsafePointer<Float>, lda: Int, k seg: Segments, w: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                row: Int, b0: ChannelBlock, b1: ChannelBlock, b2: ChannelBlock, c: UnsafeMutablePointer<Float>,
                ldc: Int) {
    let bias0 = load8(bias), bias1 = load8(bias + 8), bias2 = load8(bias + 16)
    var c00 = bias0, c01 = bias1, c02 = bias2, c10 = bias0, c11 = bias1, c12 = bias2
    var c20 = bias0, c21 = bias1, c22 = bias2, c30 = bias0, c31 = bias1, c32 = bias2
    let a0 = a, a1 = a + lda, a2 = a + 2 &* lda, a3 = a + 3 &* lda
    var wp = w
    for segment in 0..<seg.count {
        let first = segment &* seg.stride
        for kk in first..<(first &+ seg.length) {
            let w0 = load8(wp), w1 = load8(wp + 8), w2 = load8(wp + 16)
            wp += 24
            var x = V8(repeating: a0[kk])
            c00.addProduct(x, w0); c01.addProduct(x, w1); c02.addProduct(x, w2)
            x = V8(repeating: a1[kk])
            c10.addProduct(x, w0); c11.addProduct(x, w1); c12.addProduct(x, w2)
            x = V8(repeating: a2[kk])
            c20.addProduct(x, w0); c21.addProduct(x, w1); c22.addProduct(x, w2)
            x = V8(repeating: a3[kk])
            c30.addProduct(x, w0); c31.addProduct(x, w1); c32.addProduct(x, w2)
        }
    }
    put(c00, row: row, block: b0, c: c, ldc: ldc)
    put(c01, row: row, block: b1, c: c, ldc: ldc)
    put(c02, row: row, block: b2, c: c, ldc: ldc)
    put(c10, row: row + 1, block: b0, c: c, ldc: ldc)
    put(c11, row: row + 1, block: b1, c: c, ldc: ldc)
    put(c12, row: row + 1, block: b2, c: c, ldc: ldc)
    put(c20, row: row + 2, block: b0, c: c, ldc: ldc)
    put(c21, row: row + 2, block: b1, c: c, ldc: ldc)
    put(c22, row: row + 2, block: b2, c: c, ldc: ldc)
    put(c30, row: row + 3, block: b0, c: c, ldc: ldc)
    put(c31, row: row + 3, block: b1, c: c, ldc: ldc)
    put(c32, row: row + 3, block: b2, c: c, ldc: ldc)
}

@inline(__always)
func kernel1x24(a: UnsafePointer<Float>, k seg: Segments, w: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                row: Int, b0: ChannelBlock, b1: ChannelBlock, b2: ChannelBlock, c: UnsafeMutablePointer<Float>,
                ldc: Int) {
    var c0 = load8(bias), c1 = load8(bias + 8), c2 = load8(bias + 16)
    var wp = w
    for segment in 0..<seg.count {
        let first = segment &* seg.stride
        for kk in first..<(first &+ seg.length) {
            let x = V8(repeating: a[kk])
            c0.addProduct(x, load8(wp)); c1.addProduct(x, load8(wp + 8)); c2.addProduct(x, load8(wp + 16))
            wp += 24
        }
    }
    put(c0, row: row, block: b0, c: c, ldc: ldc)
    put(c1, row: row, block: b1, c: c, ldc: ldc)
    put(c2, row: row, block: b2, c: c, ldc: ldc)
}

@inline(__always)
func kernel1x16(a: UnsafePointer<Float>, k seg: Segments, w: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                row: Int, b0: ChannelBlock, b1: ChannelBlock, c: UnsafeMutablePointer<Float>, ldc: Int) {
    var c0 = load8(bias), c1 = load8(bias + 8)
    var wp = w
    for segment in 0..<seg.count {
        let first = segment &* seg.stride
        for kk in first..<(first &+ seg.length) {
            let x = V8(repeating: a[kk])
            c0.addProduct(x, load8(wp)); c1.addProduct(x, load8(wp + 8))
            wp += 16
        }
    }
    put(c0, row: row, block: b0, c: c, ldc: ldc)
    put(c1, row: row, block: b1, c: c, ldc: ldc)
}

@inline(__always)
func kernel4x8(a: UnsafePointer<Float>, lda: Int, k seg: Segments, w: UnsafePointer<Float>, bias: UnsafePointer<Float>,
               row: Int, b0: ChannelBlock, c: UnsafeMutablePointer<Float>, ldc: Int) {
    let bias0 = load8(bias)
    var c0 = bias0, c1 = bias0, c2 = bias0, c3 = bias0
    let a0 = a, a1 = a + lda, a2 = a + 2 &* lda, a3 = a + 3 &* lda
    var wp = w
    for segment in 0..<seg.count {
        let first = segment &* seg.stride
        for kk in first..<(first &+ seg.length) {
            let w0 = load8(wp)
            wp += 8
            c0.addProduct(V8(repeating: a0[kk]), w0)
            c1.addProduct(V8(repeating: a1[kk]), w0)
            c2.addProduct(V8(repeating: a2[kk]), w0)
            c3.addProduct(V8(repeating: a3[kk]), w0)
        }
    }
    put(c0, row: row, block: b0, c: c, ldc: ldc)
    put(c1, row: row + 1, block: b0, c: c, ldc: ldc)
    put(c2, row: row + 2, block: b0, c: c, ldc: ldc)
    put(c3, row: row + 3, block: b0, c: c, ldc: ldc)
}

@inline(__always)
func kernel1x8(a: UnsafePointer<Float>, k seg: Segments, w: UnsafePointer<Float>, bias: UnsafePointer<Float>,
               row: Int, b0: ChannelBlock, c: UnsafeMutablePointer<Float>, ldc: Int) {
    var c0 = load8(bias)
    var wp = w
    for segment in 0..<seg.count {
        let first = segment &* seg.stride
        for kk in first..<(first &+ seg.length) {
            c0.addProduct(V8(repeating: a[kk]), load8(wp))
            wp += 8
        }
    }
    put(c0, row: row, block: b0, c: c, ldc: ldc)
}

/// Spatial geometry of a windowed op: input size, output size, kernel, strides and leading padding.
struct WindowGeometry {
    var inH: Int, inW: Int, outH: Int, outW: Int
    var kh: Int, kw: Int, sh: Int, sw: Int
    var padTop: Int, padLeft: Int

    /// TFLite's rule (kernels/padding.h): SAME → out = ceil(in/stride), total = max((out−1)·s + k − in, 0),
    /// before = ⌊total/2⌋ and the odd pixel goes after; VALID → out = (in − k)/s + 1, no padding.
    init(inH: Int, inW: Int, kh: Int, kw: Int, sh: Int, sw: Int, padding: TFLitePadding) {
        self.inH = inH; self.inW = inW; self.kh = kh; self.kw = kw; self.sh = sh; self.sw = sw
        switch padding {
        case .same:
            outH = (inH + sh - 1) / sh
            outW = (inW + sw - 1) / sw
            padTop = max((outH - 1) * sh + kh - inH, 0) / 2
            padLeft = max((outW - 1) * sw + kw - inW, 0) / 2
        case .valid:
            outH = inH >= kh ? (inH - kh) / sh + 1 : 0
            outW = inW >= kw ? (inW - kw) / sw + 1 : 0
            padTop = 0
            padLeft = 0
        }
    }
}

/// Depthwise convolution (multiplier 1). Weights packed per block as [kh·kw][8], bias [8] per block.
func depthwise(input: UnsafePointer<Float>, channels: Int, g: WindowGeometry, blocks: [ChannelBlock],
               weights: UnsafePointer<Float>, bias: UnsafePointer<Float>, activation: KernelActivation,
               output: UnsafeMutablePointer<Float>) {
    let taps = g.kh * g.kw
    if g.kh == 3, g.kw == 3, channels >= 8 {
        depthwise3x3(input: input, channels: channels, g: g, blocks: blocks, weights: weights, bias: bias,
                     activation: activation, output: output)
        return
    }
    for oy in 0..<g.outH {
        let iy0 = oy * g.sh - g.padTop
        let kyLo = max(0, -iy0), kyHi = min(g.kh, g.inH - iy0)
        for ox in 0..<g.outW {
            let ix0 = ox * g.sw - g.padLeft
            let kxLo = max(0, -ix0), kxHi = min(g.kw, g.inW - ix0)
            let out = output + (oy &* g.outW &+ ox) &* channels
            for (b, block) in blocks.enumerated() {
                var acc = load8(bias + b &* 8)
                let wb = weights + b &* taps &* 8
                for ky in kyLo..<max(kyLo, kyHi) {
                    for kx in kxLo..<max(kxLo, kxHi) {
                        let p = input + (((iy0 &+ ky) &* g.inW &+ ix0 &+ kx) &* channels &+ block.start)
                        let x = block.lanes == 8 ? load8(p) : loadPartial(p, block.lanes)
                        acc.addProduct(x, load8(wb + (ky &* g.kw &+ kx) &* 8))
                    }
                }
                acc = activate(acc, activation, b)
                if block.lanes == 8 {
                    store8(acc, out + block.start)
                } else {
                    storePartial(acc, out + block.start, block.lanes)
                }
            }
        }
    }
}

/// The common 3×3 case: weights of a block held in registers, interior pixels in a tight loop without
/// bounds checks, the (at most two) border columns and rows through the checked path.
private func depthwise3x3(input: UnsafePointer<Float>, channels: Int, g: WindowGeometry, blocks: [ChannelBlock],
                          weights: UnsafePointer<Float>, bias: UnsafePointer<Float>, activation: KernelActivation,
                          output: UnsafeMutablePointer<Float>) {
    let c = channels
    let rowStride = g.inW * c
    let blockCount = (c + 7) / 8
    let noActivation: Bool
    if case .none = activation { noActivation = true } else { noActivation = false }
    // Output columns whose 3 input columns are all inside the image.
    let oxLo = min(g.outW, (g.padLeft + g.sw - 1) / g.sw)
    var oxHi = g.outW
    while oxHi > oxLo, (oxHi - 1) * g.sw - g.padLeft + 2 >= g.inW { oxHi -= 1 }
    let step = g.sw * c

    @inline(__always) func border(_ oy: Int, _ ox: Int, _ b: Int, _ start: Int) {
        let iy0 = oy &* g.sh &- g.padTop, ix0 = ox &* g.sw &- g.padLeft
        let wb = weights + b &* 72
        var acc = load8(bias + b &* 8)
        for ky in 0..<3 {
            let iy = iy0 &+ ky
            if iy < 0 || iy >= g.inH { continue }
            for kx in 0..<3 {
                let ix = ix0 &+ kx
                if ix < 0 || ix >= g.inW { continue }
                acc.addProduct(load8(input + ((iy &* g.inW &+ ix) &* c &+ start)), load8(wb + (ky &* 3 &+ kx) &* 8))
            }
        }
        store8(noActivation ? acc : activate(acc, activation, b), output + ((oy &* g.outW &+ ox) &* c &+ start))
    }

    for oy in 0..<g.outH {
        let iy0 = oy * g.sh - g.padTop
        let rowInside = iy0 >= 0 && iy0 + 2 < g.inH
        for b in 0..<blockCount {
            let start = min(b * 8, c - 8)
            if !rowInside {
                for ox in 0..<g.outW { border(oy, ox, b, start) }
                continue
            }
            for ox in 0..<oxLo { border(oy, ox, b, start) }
            // Weights are re-read from L1 inside the loops: held in nine named SIMD8 values across the loop,
            // the compiler splits them into 128-bit halves and the kernel runs at half width.
            let wb = weights + b &* 72
            let bv = load8(bias + b &* 8)
            var p = input + (iy0 &* rowStride &+ (oxLo &* g.sw &- g.padLeft) &* c &+ start)
            var out = output + ((oy &* g.outW &+ oxLo) &* c &+ start)
            var n = oxHi - oxLo
            if g.sw == 1 {
                // Four outputs per step share six input columns per kernel row: 18 loads for 36 FMAs.
                while n >= 4 {
                    var a0 = bv, a1 = bv, a2 = bv, a3 = bv
                    for ky in 0..<3 {
                        let row = p + ky &* rowStride
                        let x0 = load8(row), x1 = load8(row + c), x2 = load8(row + 2 &* c)
                        let x3 = load8(row + 3 &* c), x4 = load8(row + 4 &* c), x5 = load8(row + 5 &* c)
                        let kw = wb + ky &* 24
                        let k0 = load8(kw), k1 = load8(kw + 8), k2 = load8(kw + 16)
                        a0.addProduct(x0, k0); a1.addProduct(x1, k0); a2.addProduct(x2, k0); a3.addProduct(x3, k0)
                        a0.addProduct(x1, k1); a1.addProduct(x2, k1); a2.addProduct(x3, k1); a3.addProduct(x4, k1)
                        a0.addProduct(x2, k2); a1.addProduct(x3, k2); a2.addProduct(x4, k2); a3.addProduct(x5, k2)
                    }
                    if noActivation {
                        store8(a0, out); store8(a1, out + c); store8(a2, out + 2 &* c); store8(a3, out + 3 &* c)
                    } else {
                        store8(activate(a0, activation, b), out)
                        store8(activate(a1, activation, b), out + c)
                        store8(activate(a2, activation, b), out + 2 &* c)
                        store8(activate(a3, activation, b), out + 3 &* c)
                    }
                    p += 4 &* c
                    out += 4 &* c
                    n &-= 4
                }
            }
            while n > 0 {
                var acc = bv
                for ky in 0..<3 {
                    let row = p + ky &* rowStride, kw = wb + ky &* 24
                    acc.addProduct(load8(row), load8(kw))
                    acc.addProduct(load8(row + c), load8(kw + 8))
                    acc.addProduct(load8(row + 2 &* c), load8(kw + 16))
                }
                store8(noActivation ? acc : activate(acc, activation, b), out)
                p += step
                out += c
                n &-= 1
            }
            for ox in oxHi..<g.outW { border(oy, ox, b, start) }
        }
    }
}

/// Max pooling; cells outside the input are ignored (TFLite treats padding as −∞).
func maxPool(input: UnsafePointer<Float>, channels: Int, g: WindowGeometry, blocks: [ChannelBlock],
             activation: KernelActivation, output: UnsafeMutablePointer<Float>) {
    if g.kh == 2, g.kw == 2, g.sh == 2, g.sw == 2, g.padTop == 0, g.padLeft == 0, 2 * g.outH <= g.inH,
       2 * g.outW <= g.inW, channels >= 8, case .none = activation {
        maxPool2x2(input: input, channels: channels, g: g, output: output)
        return
    }
    for oy in 0..<g.outH {
        let iy0 = oy * g.sh - g.padTop
        let kyLo = max(0, -iy0), kyHi = max(kyLo, min(g.kh, g.inH - iy0))
        for ox in 0..<g.outW {
            let ix0 = ox * g.sw - g.padLeft
            let kxLo = max(0, -ix0), kxHi = max(kxLo, min(g.kw, g.inW - ix0))
            let out = output + (oy &* g.outW &+ ox) &* channels
            for (b, block) in blocks.enumerated() {
                var acc = V8(repeating: -.infinity)
                for ky in kyLo..<kyHi {
                    for kx in kxLo..<kxHi {
                        let p = input + (((iy0 &+ ky) &* g.inW &+ ix0 &+ kx) &* channels &+ block.start)
                        acc = max8(acc, block.lanes == 8 ? load8(p) : loadPartial(p, block.lanes))
                    }
                }
                acc = activate(acc, activation, b)
                if block.lanes == 8 {
                    store8(acc, out + block.start)
                } else {
                    storePartial(acc, out + block.start, block.lanes)
                }
            }
        }
    }
}

/// The 2×2/2 pooling of these models, every window inside the input.
private func maxPool2x2(input: UnsafePointer<Float>, channels c: Int, g: WindowGeometry,
                        output: UnsafeMutablePointer<Float>) {
    let rowStride = g.inW * c
    for oy in 0..<g.outH {
        var out = output + oy &* g.outW &* c
        var p = input + 2 &* oy &* rowStride
        for _ in 0..<g.outW {
            var ch = 0
            while true {
                let start = min(ch, c &- 8)
                let top = max8(load8(p + start), load8(p + (c &+ start)))
                let bottom = max8(load8(p + (rowStride &+ start)), load8(p + (rowStride &+ c &+ start)))
                store8(max8(top, bottom), out + start)
                ch &+= 8
                if ch >= c { break }
            }
            p += 2 &* c
            out += c
        }
    }
}

/// out = activation(a + b) elementwise (same shapes).
func addElementwise(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int,
                    activation: TFLiteActivation, output: UnsafeMutablePointer<Float>) {
    let kernelActivation = KernelActivation(activation)
    var i = 0
    while i &+ 8 <= count {
        store8(activate(load8(a + i) + load8(b + i), kernelActivation, 0), output + i)
        i &+= 8
    }
    while i < count {
        let v = a[i] + b[i]
        output[i] = activate(V8(repeating: v), kernelActivation, 0)[0]
        i &+= 1
    }
}

/// ReLU or per-channel PReLU over `pixels × channels` values (slopes unpacked, one per channel).
func activationLayer(_ input: UnsafePointer<Float>, pixels: Int, channels: Int, alpha: UnsafePointer<Float>?,
                     output: UnsafeMutablePointer<Float>) {
    for p in 0..<pixels {
        let src = input + p &* channels, dst = output + p &* channels
        for ch in 0..<channels {
            let v = src[ch]
            if let alpha { dst[ch] = v >= 0 ? v : v * alpha[ch] } else { dst[ch] = max(v, 0) }
        }
    }
}
